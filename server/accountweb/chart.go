package accountweb

import (
	"strconv"
	"time"

	"github.com/unitd/unitd/account"
)

// Chart geometry, in SVG user units.
const (
	chartWidth  = 720
	chartHeight = 160
	chartTop    = 10
	chartBottom = 140 // baseline of the bars
)

// chart is a server-rendered bar chart of a key's requests.
type chart struct {
	Title  string
	Bars   []bar
	Max    int64
	Total  int64
	From   time.Time
	To     time.Time
	Width  int
	Height int
	Base   int
}

type bar struct {
	X, Y, W, H int
	Label      string // for the bar's <title>
}

func newChart(title string, pts []account.UsagePoint, step time.Duration) chart {
	c := chart{Title: title, Width: chartWidth, Height: chartHeight, Base: chartBottom}
	if len(pts) == 0 {
		return c
	}
	c.From, c.To = pts[0].Start, pts[len(pts)-1].Start.Add(step)
	for _, p := range pts {
		c.Total += p.Count
		c.Max = max(c.Max, p.Count)
	}
	w := chartWidth / len(pts)
	for i, p := range pts {
		h := 0
		if c.Max > 0 {
			h = int(p.Count * (chartBottom - chartTop) / c.Max)
			if p.Count > 0 && h == 0 {
				h = 1 // a single request still shows
			}
		}
		c.Bars = append(c.Bars, bar{
			X: i * w, Y: chartBottom - h, W: max(w-1, 1), H: h,
			Label: p.Start.UTC().Format("Jan 2 15:04") + " UTC: " + strconv.FormatInt(p.Count, 10) + " requests",
		})
	}
	return c
}
