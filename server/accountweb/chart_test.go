package accountweb

import (
	"strings"
	"testing"
	"time"

	"github.com/unitd/unitd/account"
)

func TestNiceScale(t *testing.T) {
	for _, tt := range []struct{ max, top, step int64 }{
		{0, 1, 1}, {1, 1, 1}, {4, 4, 1}, {5, 5, 1}, {6, 6, 2}, {7, 8, 2}, {10, 10, 2},
		{11, 15, 5}, {42, 50, 10}, {99, 100, 20}, {101, 150, 50}, {1234, 1500, 500}, {987654, 1000000, 200000},
	} {
		top, step := niceScale(tt.max)
		if top != tt.top || step != tt.step {
			t.Errorf("niceScale(%d) = %d, %d; want %d, %d", tt.max, top, step, tt.top, tt.step)
		}
		if top < tt.max || top/step > 5 {
			t.Errorf("niceScale(%d) = %d, %d: does not hold the maximum in at most five steps", tt.max, top, step)
		}
	}
}

// usage is what the store answers: buckets of step aligned down, from the
// one holding since to the one holding now.
func usage(since, now time.Time, step time.Duration, counts map[int]int64) []account.UsagePoint {
	start := since.Truncate(step)
	var pts []account.UsagePoint
	for i := 0; !start.Add(time.Duration(i) * step).After(now); i++ {
		pts = append(pts, account.UsagePoint{Start: start.Add(time.Duration(i) * step), Count: counts[i]})
	}
	return pts
}

// TestChartEndsNow: at 06:18 the week's time axis ends at 06:18 (the
// running 2-hour interval is drawn up to now, not to 08:00), its ticks
// are the midnights in the window (but the last, too close to the label
// of now), the y axis has round ticks from 0 to
// at least the largest count, with its unit, and every interval is in the
// table.
func TestChartEndsNow(t *testing.T) {
	now := time.Date(2026, 11, 28, 6, 18, 0, 0, time.UTC)
	for _, tt := range []struct {
		name         string
		step, window time.Duration
		ticks        []string
		yLabel       string
	}{
		{"week", 2 * time.Hour, 7 * 24 * time.Hour, []string{"Nov 22", "Nov 23", "Nov 24", "Nov 25", "Nov 26", "Nov 27", "now, 06:18 UTC"}, "requests per 2 hours"},
		{"day", 15 * time.Minute, 24 * time.Hour, []string{"08:00", "12:00", "16:00", "20:00", "00:00", "now, 06:18 UTC"}, "requests per 15 minutes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pts := usage(now.Add(-tt.window), now, tt.step, map[int]int64{0: 3, 5: 42, 20: 1})
			c := newChart(tt.name, "Requests", pts, tt.step, tt.window, now)
			if !c.To.Equal(now) || !c.From.Equal(now.Add(-tt.window)) {
				t.Errorf("the axis runs from %v to %v, want the window ending now", c.From, c.To)
			}
			var labels []string
			for _, x := range c.XTicks {
				labels = append(labels, x.Label)
				if x.Pos < plotLeft || x.Pos > plotRight {
					t.Errorf("time tick %q at %d, outside the plot", x.Label, x.Pos)
				}
			}
			if strings.Join(labels, "|") != strings.Join(tt.ticks, "|") {
				t.Errorf("time ticks %q, want %q", labels, tt.ticks)
			}
			if last := c.XTicks[len(c.XTicks)-1]; last.Pos != plotRight {
				t.Errorf("now is at %d, not at the axis's end %d", last.Pos, plotRight)
			}
			last := c.Bars[len(c.Bars)-1]
			if last.X+last.W > plotRight || c.Bars[0].X < plotLeft {
				t.Errorf("bars from %d to %d leave the plot %d–%d", c.Bars[0].X, last.X+last.W, plotLeft, plotRight)
			}
			var ys []string
			for _, y := range c.YTicks {
				ys = append(ys, y.Label)
			}
			if got := strings.Join(ys, " "); got != "0 10 20 30 40 50" {
				t.Errorf("count ticks %q, want 0 10 20 30 40 50", got)
			}
			if c.YTicks[0].Pos != plotBottom || c.YTicks[len(c.YTicks)-1].Pos != plotTop {
				t.Errorf("count ticks from %d to %d, want the plot's %d to %d", c.YTicks[0].Pos, c.YTicks[len(c.YTicks)-1].Pos, plotBottom, plotTop)
			}
			if c.YLabel != tt.yLabel {
				t.Errorf("y axis %q, want %q", c.YLabel, tt.yLabel)
			}
			if len(c.Rows) != len(c.Bars) || c.Total != 46 || c.Max != 42 {
				t.Errorf("%d rows for %d bars, total %d, max %d", len(c.Rows), len(c.Bars), c.Total, c.Max)
			}
			if r := c.Rows[len(c.Rows)-1]; r.To != "Nov 28 06:18" {
				t.Errorf("the last interval ends %q, want now", r.To)
			}
			for _, want := range []string{"to now (Nov 28 06:18 UTC)", "46 requests in all", "at most 42 per"} {
				if !strings.Contains(c.Summary, want) {
					t.Errorf("summary %q lacks %q", c.Summary, want)
				}
			}
		})
	}
}

// TestChartPageIsReadable: the key page's charts are images with a title
// and a description, and a table of every interval.
func TestChartPageIsReadable(t *testing.T) {
	f := newFixture(t, false, nil)
	f.user(f.acctA, "ada@example.com")
	c, csrf := f.signedIn("ada@example.com")
	_, id := c.createKey(csrf, "billing")
	_, body := c.get("/account/keys/" + id)
	for _, want := range []string{
		`role="img" aria-labelledby="day-title" aria-describedby="day-desc"`,
		`<desc id="week-desc">Bar chart, from `,
		`>requests per 15 minutes</text>`,
		`>requests per 2 hours</text>`,
		`>time (UTC)</text>`,
		`<summary>Requests in the last 7 days, per 2 hours, as a table</summary>`,
		`<th scope="col" class="num">Requests</th>`,
		`now, `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the key page lacks %s", want)
		}
	}
}
