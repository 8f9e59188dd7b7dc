package accountweb

import (
	"fmt"
	"strconv"
	"time"

	"github.com/unitd/unitd/account"
)

// Chart geometry, in SVG user units: the plot area and the margins that
// hold the axes' labels.
const (
	chartWidth  = 720
	chartHeight = 200
	plotLeft    = 56  // the y axis; its labels are to its left
	plotRight   = 708 // the right end of the time axis: now
	plotTop     = 26
	plotBottom  = 164 // the time axis; its labels are below it
)

// chart is a server-rendered bar chart of a key's requests over a window
// that ends now: a y axis of request counts with round ticks, a time axis
// with ticks at round hours or days (UTC) that ends at now, and, for
// screen readers and anyone who wants the figures, a summary and a table
// of every interval.
type chart struct {
	Title   string
	Summary string // what the chart shows, in words: its accessible description
	ID      string // prefix of the element ids
	YLabel  string // the y axis's unit
	From    time.Time
	To      time.Time // now
	Total   int64
	Max     int64
	Bars    []bar
	YTicks  []tick
	XTicks  []tick
	Rows    []row // every interval, oldest first

	Width, Height, Left, Right, Top, Bottom int
	// Where the axes' labels go.
	YLabelX, TickEnd, XLabelY, AxisTitleY int
}

type bar struct {
	X, Y, W, H int
	Label      string // for the bar's <title>
}

// tick is a labelled position on an axis: Pos is x on the time axis, y on
// the count axis.
type tick struct {
	Pos   int
	Label string
}

type row struct {
	From, To string
	Count    int64
}

// newChart charts pts, the key's requests per step since now-window
// (buckets aligned to step, the first of which may start before the
// window and the last of which is still running), as of now.
func newChart(id, title string, pts []account.UsagePoint, step, window time.Duration, now time.Time) chart {
	now = now.UTC()
	c := chart{
		Title: title, ID: id, YLabel: "requests per " + stepWords(step),
		From: now.Add(-window), To: now,
		Width: chartWidth, Height: chartHeight, Left: plotLeft, Right: plotRight, Top: plotTop, Bottom: plotBottom,
		YLabelX: plotLeft - 6, TickEnd: plotBottom + 5, XLabelY: plotBottom + 20, AxisTitleY: plotBottom + 34,
	}
	for _, p := range pts {
		c.Total += p.Count
		c.Max = max(c.Max, p.Count)
	}
	top, every := niceScale(c.Max)
	for v := int64(0); v <= top; v += every {
		c.YTicks = append(c.YTicks, tick{Pos: c.y(v, top), Label: strconv.FormatInt(v, 10)})
	}
	for _, p := range pts {
		start, end := p.Start.UTC(), p.Start.UTC().Add(step)
		if end.After(now) {
			end = now // the running interval, so far
		}
		if !end.After(c.From) || !start.Before(now) {
			continue
		}
		x0, x1 := c.x(maxTime(start, c.From)), c.x(end)
		h := plotBottom - c.y(p.Count, top)
		if p.Count > 0 && h == 0 {
			h = 1 // a single request still shows
		}
		label := fmt.Sprintf("%s to %s: %d requests", start.Format("Jan 2 15:04"), end.Format("15:04 UTC"), p.Count)
		if p.Count == 1 {
			label = fmt.Sprintf("%s to %s: 1 request", start.Format("Jan 2 15:04"), end.Format("15:04 UTC"))
		}
		c.Bars = append(c.Bars, bar{X: x0, Y: plotBottom - h, W: max(x1-x0-1, 1), H: h, Label: label})
		c.Rows = append(c.Rows, row{From: start.Format("Jan 2 15:04"), To: end.Format("Jan 2 15:04"), Count: p.Count})
	}
	// Time ticks at round hours (every 4 hours) over a day, at midnight
	// UTC over a week; the axis's end is labelled now.
	tickStep, format := 4*time.Hour, "15:04"
	if window > 48*time.Hour {
		tickStep, format = 24*time.Hour, "Jan 2"
	}
	for t := c.From.Truncate(tickStep).Add(tickStep); t.Before(now); t = t.Add(tickStep) {
		if x := c.x(t); plotRight-x >= 70 { // room for the label of now
			c.XTicks = append(c.XTicks, tick{Pos: x, Label: t.Format(format)})
		}
	}
	c.XTicks = append(c.XTicks, tick{Pos: plotRight, Label: "now, " + now.Format("15:04 UTC")})
	c.Summary = fmt.Sprintf("Bar chart, from %s to now (%s): %d requests in all, at most %d per %s.",
		c.From.Format("Jan 2 15:04"), now.Format("Jan 2 15:04 UTC"), c.Total, c.Max, stepWords(step))
	return c
}

// x is the position of t on the time axis.
func (c chart) x(t time.Time) int {
	span := c.To.Sub(c.From)
	return plotLeft + int(int64(plotRight-plotLeft)*int64(t.Sub(c.From))/int64(span))
}

// y is the height of the count v on an axis that ends at top.
func (c chart) y(v, top int64) int {
	return plotBottom - int(int64(plotBottom-plotTop)*v/top)
}

// niceScale returns the top of a count axis that holds m and the step of
// its ticks: 1, 2 or 5 times a power of ten, at most five steps.
func niceScale(m int64) (top, step int64) {
	if m <= 0 {
		return 1, 1
	}
	for p := int64(1); ; p *= 10 {
		for _, s := range []int64{1, 2, 5} {
			step = s * p
			if top = (m + step - 1) / step * step; top/step <= 5 {
				return top, step
			}
		}
	}
}

func stepWords(step time.Duration) string {
	if step%time.Hour == 0 {
		if step == time.Hour {
			return "hour"
		}
		return fmt.Sprintf("%d hours", int(step/time.Hour))
	}
	return fmt.Sprintf("%d minutes", int(step/time.Minute))
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
