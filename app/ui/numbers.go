package ui

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Numbers is the panel a presenter points at: requests, successes, 429s,
// other failures, wasted requests per success, peak req/s, amplification in
// the first row; first tries vs retries, completion percentiles, time to
// drain, give-ups and the measurement checks below. Each number carries
// data-stat=<name> and its raw value in data-value (durations in ms).
type Numbers struct {
	app.Compo

	Lab *Lab
	Rev int
}

// Render draws the panel.
func (n *Numbers) Render() app.UI {
	l := n.Lab
	stats := l.statList()
	var primary, secondary, hidden []stat
	for _, s := range stats {
		if s.Hidden {
			hidden = append(hidden, s)
		} else if s.Primary {
			primary = append(primary, s)
		} else {
			secondary = append(secondary, s)
		}
	}
	// With a baseline kept every card keeps room for its line against it
	// (web/app.css: .compared), which comes as a run starts and grows its
	// change as it ends: the numbers grew 63 px through a compared run
	// (140 px at 1024 px in presentation mode), and the timeline below
	// moved under the presenter's pointer.
	compared := l.base != nil && !l.watching && !l.watched
	card := func(s stat, cls string) app.UI {
		text, sub := s.Text, s.Sub
		// The line says what the number is until there is a run, then the
		// run's own figures where it has some (the description stays in
		// the tooltip).
		// The tooltip has the line's counts whole where it shortens
		// them (stat.Full).
		title := sub
		switch {
		case !l.hasStats: // nothing measured yet
			text = "–"
		case s.NotMeasured != "":
			text, sub = "–", s.NotMeasured
		case s.Figures != "":
			sub = s.Figures
		}
		if sub != title { // what the number is, then the run's figures (whole: stat.Full)
			title = strings.TrimPrefix(title+"; ", "; ") + cmp.Or(s.Full, sub)
		}
		if s.Tip != "" {
			title += "; " + s.Tip
		}
		div := app.Div().Class(cls).DataSet("stat", s.Name).DataSet("value", strconv.FormatFloat(s.Value, 'f', -1, 64))
		value := app.Span().Class("v")
		if text == "–" {
			// No number: a screen reader said "en dash" (an accessibility
			// review). It hears "none"; the line says why.
			spoken := "none"
			if !l.hasStats {
				spoken = "no run yet"
			}
			value = value.Body(app.Span().Aria("hidden", "true").Text(text), app.Span().Class("sr-only").Text(spoken))
		} else if text == s.Text && s.Exact != text && s.Exact != "" && l.hasStats {
			// A number shortened to fit ("12.3k"): whole in the tooltip,
			// and to a screen reader, which would say "12.3k".
			value = value.Title(s.Exact).Body(app.Span().Aria("hidden", "true").Text(text), app.Span().Class("sr-only").Text(s.Exact))
		} else {
			value = value.Text(text)
		}
		// The line's items ("3 timeouts ·", "12 aborted") each a box
		// kept on one line where it fits one (web/app.css: .item): "238
		// timeouts · 238 cut at limit" broke after "cut". The dot ends
		// its item: between the boxes the next line began "· 0 aborted".
		line := app.Span().Class("sub").Title(title)
		if items := strings.Split(sub, itemSep); len(items) > 1 {
			parts := make([]app.UI, 0, 2*len(items))
			for i, it := range items {
				if i < len(items)-1 {
					parts = append(parts, app.Span().Class("item").Text(it+strings.TrimSuffix(itemSep, " ")), app.Text(" "))
				} else {
					parts = append(parts, app.Span().Class("item").Text(it))
				}
			}
			line = line.Body(parts...)
		} else {
			line = line.Text(sub)
		}
		// Where the line is not shown (presentation mode's second row)
		// the label says what of it changes the number's meaning
		// (stat.Short), and has the line's tooltip. A screen reader
		// hears the name and the line instead (app.css).
		label := app.Span().Class("k").Title(title).Text(s.Label)
		if s.Short != "" {
			label = app.Span().Class("k").Title(title).Body(app.Span().Class("k-long").Text(s.Label), app.Span().Class("k-short").Aria("hidden", "true").Text(s.Short))
		}
		body := []app.UI{value, label, line}
		switch {
		case s.HasBase:
			// Against the baseline (Compare): its figure and, once this
			// run is over, the change; a run or a replay going on has
			// numbers so far, beside the baseline's whole run's (stat.SoFar).
			// Whether the change is for the better is said in words and
			// colour (betterWhen).
			// A duration's figure and unit on one line: "baseline 12.63 s"
			// broke before its "s" in the narrowest cards.
			base, spoken, v := "baseline "+strings.ReplaceAll(s.BaseText, " ", "\u00a0"), "baseline "+s.BaseExact, ""
			figure := "The baseline run's figure"
			if s.BaseExact != s.BaseText { // shortened: whole here
				figure += " (" + s.BaseExact + ")"
			}
			title := figure + ", and this run's change from it"
			switch {
			case !l.hasStats:
				title = figure + ": the next run's change from it is told when that run ends"
			case s.SoFar:
				base, spoken = base+" (whole run)", spoken+" for its whole run"
				title = figure + " for its whole run: this run's change from it is told when this run ends"
			}
			if d := baseDelta(s.Value, s.Base, s.Text); d != "" && !s.SoFar && !s.NoDelta {
				base += " · " + d
				spoken += ", " + spokenDelta(d)
				if v = s.verdict(d); v != "" {
					spoken += ", " + v
				}
				switch {
				case d == "same":
				case pageTiming[s.Name]:
					title += ", " + pageTimingWhy
					spoken += ", not judged: this page's timing"
				case s.Noise > 0:
					where := "on our machines"
					if s.NoiseHere {
						where = "on this machine (your rerun of a baseline's settings)"
					}
					title += ", not called better or worse: within ±" + percent(s.Noise) + ", how far two live runs of the same settings came apart " + where
					spoken += ", not judged: within live runs' spread"
				}
			}
			div = div.DataSet("base", strconv.FormatFloat(s.Base, 'f', -1, 64))
			body = append(body, app.Span().Class("base").Title(title).Aria("label", spoken).Body(
				app.Text(base),
				app.If(v != "", func() app.UI { return app.Span().Class("verdict " + v).Text(" " + v) }),
			))
		case compared:
			body = append(body, app.Span().Class("base")) // its room, kept (above)
		}
		return div.Body(body...)
	}
	return app.Section().ID("numbers").Class("numbers", map[bool]string{true: "compared"}[compared]).Aria("labelledby", "h-numbers").Body(
		subHeading("h-numbers", "Numbers"),
		app.Div().Class("stats primary").Body(app.Range(primary).Slice(func(i int) app.UI { return card(primary[i], "stat big") })),
		app.Div().Class("stats secondary").Body(app.Range(secondary).Slice(func(i int) app.UI { return card(secondary[i], "stat") })),
		app.Div().Hidden(true).Body(app.Range(hidden).Slice(func(i int) app.UI {
			s := hidden[i]
			return app.Span().DataSet("stat", s.Name).DataSet("value", strconv.FormatFloat(s.Value, 'f', -1, 64)).Text(s.Label + ": " + s.Text)
		})),
	)
}
