package ui

import (
	"strconv"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/fleet"
	"retrylab/app/mock"
)

// groupTitles names the groups of fleet.Fields, in the order shown.
var groupTitles = []struct{ id, title, note string }{
	{"fleet", "Client fleet", "Who calls, how often, for how long."},
	{"backoff", "Backoff", "What a worker waits after a failure."},
	{"retry-after", "Retry-After and hints", "Listening to what the server says."},
	{"bucket", "Fleet token bucket", "Pacing the whole fleet on the client."},
	{"budget", "Retry budget", "Capping retries across the fleet."},
	{"endpoint", "Endpoint", "The rate-limited server the workers call."},
	{"failures", "Injected failures", "Percent of all requests that fail whatever the limit says; they do not count against it. The four together: at most 100%."},
	{"outage", "Scheduled outage", "Give it a length and the server goes down for that long in every run, live or simulated: the herd that comes back is the point."},
}

// Controls are the inputs, generated from fleet.Fields: each with its
// label, unit, allowed range and one line on why it matters, and a message
// beside it when its value is not allowed.
//
// The message is an alert (a screen reader says it at once) only as it
// appears: as the user types on, it changes with each key (it quotes the
// value) but is not said again; the input still names it (aria-describedby)
// and is aria-invalid until the value is allowed. Messages that come back
// with what was typed before a reload (Lab.adoptDraft) are no alerts: a
// screen reader heard each at once, and the link's notice with them; the
// run status says how many fields to fix.
//
// While a run goes on the inputs are disabled by the sidebar's fieldset
// (one attribute), so starting a run does not re-render every input.
type Controls struct {
	app.Compo

	Lab *Lab
	Rev int
	// Groups is how many groups are rendered, from the first; 0: all. The
	// page's first mount renders the first alone (Playground.groups): the
	// others, below the first screen in the sidebar's scrolling region (and
	// all of it where the sidebar comes after the timeline), are ~300 of
	// the page's ~575 elements, each made by go-app one JavaScript call at
	// a time, and are mounted after the first paint.
	Groups int

	invalid map[string]bool // the fields the last render showed invalid
}

// Render draws every group of fields.
func (c *Controls) Render() app.UI {
	if c.invalid == nil {
		c.invalid = map[string]bool{}
	}
	groups := groupTitles
	if c.Groups > 0 && c.Groups < len(groups) {
		groups = groups[:c.Groups]
	}
	return app.Form().Class("controls").
		OnSubmit(func(ctx app.Context, e app.Event) { e.PreventDefault() }).
		Body(app.Range(groups).Slice(func(i int) app.UI {
			g := groups[i]
			var fields []int
			for j := range fleet.Fields {
				if fleet.Fields[j].Group == g.id {
					fields = append(fields, j)
				}
			}
			return app.FieldSet().Class("group").ID("group-"+g.id).Body(
				app.Legend().Text(g.title),
				app.P().Class("group-note").Text(g.note),
				app.Range(fields).Slice(func(k int) app.UI { return c.field(&fleet.Fields[fields[k]]) }),
			)
		}))
}

// field is one parameter's input with its label, help and messages. It runs
// for every field on each render, from the page's first, so its parts are
// functions of their own (an input per kind, fieldMessages): a long
// function run that often is sent to Chromium's optimising compiler during
// the page's load (fleet's package doc, "Start-up in the browser").
func (c *Controls) field(f *fleet.Field) app.UI {
	l := c.Lab
	s := l.Scenario()
	key := f.Key
	id := "f-" + key
	errMsg := l.Err(key)
	alert := errMsg != "" && !c.invalid[key] && !l.restored // just became invalid, as typed
	c.invalid[key] = errMsg != ""
	// Greyed out when it has no effect, and said why: still in the Tab
	// order and editable, so a value can be prepared for when it counts.
	off := f.NotInEffect(&s)
	cls := "field kind-" + f.Kind.String()
	if errMsg != "" {
		cls += " invalid"
	}
	if off != "" {
		cls += " inactive"
	}
	st := staticFields()[key]
	// The allowed range too: a screen reader learnt a duration's syntax
	// only from an error (an accessibility review).
	described := "help-" + key
	if st.ranged {
		described += " range-" + key
	}
	if errMsg != "" {
		described = "err-" + key + " " + described
	}
	if off != "" {
		described = "off-" + key + " " + described
	}
	note, simOnly := l.note(key)
	info := ""
	if note != "" {
		described = "note-" + key + " " + described
	} else if key == "room" && errMsg == "" {
		info = l.roomNote() // the page's name in the room
	} else if errMsg == "" {
		info = f.PointNote(&s, l.Text(key)) // "1.000" read as 1
	}
	if info != "" {
		described = "info-" + key + " " + described
	}
	var input app.UI
	switch f.Kind {
	case fleet.KindBool:
		input = boolInput(l, key, id, described)
	case fleet.KindChoice:
		input = choiceInput(l, f, id, described, errMsg != "")
	default:
		input = textInput(l, f, id, described, errMsg != "")
	}
	head := st.head
	if key == "jobs" && s.JobsTotal && fleet.SimWorkersRange.Contains(s.Workers) {
		head = fieldHead(f, fieldRange(f, s.Workers))
	}
	return app.Div().Class(cls).DataSet("key", key).Body(
		append([]app.UI{app.Raw(head), input, app.Raw(st.help)}, fieldMessages(key, errMsg, alert, note, simOnly, info, off)...)...,
	)
}

func boolInput(l *Lab, key, id, described string) app.UI {
	return app.Input().Type("checkbox").ID(id).Class("switch").
		Checked(l.Text(key) == "on").
		Aria("describedby", described).
		OnChange(func(ctx app.Context, e app.Event) {
			v := "off"
			if ctx.JSSrc().Get("checked").Bool() {
				v = "on"
			}
			l.Set(key, v)
		})
}

func choiceInput(l *Lab, f *fleet.Field, id, described string, invalid bool) app.UI {
	key, cur := f.Key, l.Text(f.Key)
	return app.Select().ID(id).
		Aria("invalid", strconv.FormatBool(invalid)).
		Aria("describedby", described).
		Body(app.Range(f.Choices).Slice(func(i int) app.UI {
			ch := f.Choices[i]
			label := ch.Label
			if label == "" {
				label = ch.Value
			}
			return app.Option().Value(ch.Value).Selected(ch.Value == cur).Text(label)
		})).
		OnChange(func(ctx app.Context, e app.Event) { l.Set(key, ctx.JSSrc().Get("value").String()) })
}

func textInput(l *Lab, f *fleet.Field, id, described string, invalid bool) app.UI {
	key, mode := f.Key, "text"
	switch f.Kind {
	case fleet.KindInt:
		mode = "numeric"
	case fleet.KindFloat:
		mode = "decimal"
	}
	return app.Input().Type("text").ID(id).
		Value(l.Text(key)).
		Attr("inputmode", mode).
		Attr("autocomplete", "off").
		Attr("spellcheck", "false").
		Aria("invalid", strconv.FormatBool(invalid)).
		Aria("describedby", described).
		OnInput(func(ctx app.Context, e app.Event) { l.Type(key, ctx.JSSrc().Get("value").String()) }).
		OnChange(func(ctx app.Context, e app.Event) { l.Commit() })
}

// fieldMessages are what is said under a field's input: the error (an
// alert when it has just appeared), the notice about its value in the URL,
// other information, and why it has no effect (fleet.Field.NotInEffect).
func fieldMessages(key, errMsg string, alert bool, note string, simOnly bool, info, off string) []app.UI {
	return []app.UI{
		app.If(errMsg != "", func() app.UI {
			p := app.P().ID("err-" + key).Class("err")
			if alert {
				p = p.Role("alert")
			}
			return p.Text(errMsg)
		}),
		app.If(note != "", func() app.UI {
			if simOnly { // Run works as set: information, not a warning
				return app.P().ID("note-" + key).Class("help note").Text(note)
			}
			return app.P().ID("note-"+key).Class("help note").Style("color", "var(--warn)").Style("font-weight", "600").Text(note)
		}),
		app.If(info != "", func() app.UI {
			return app.P().ID("info-" + key).Class("help info").Text(info)
		}),
		app.If(off != "", func() app.UI {
			return app.P().ID("off-" + key).Class("help off").Text("Not in effect " + off + ".")
		}),
	}
}

// fieldStatic is the HTML of the parts of a field that never change: its
// head (label, unit, allowed range) and its help line. As app.Raw each is
// one element for go-app to mount (from the HTML), not one per node and
// attribute: the ~70 fields are most of the page's first mount.
type fieldStatic struct {
	head, help string
	ranged     bool // the head has the allowed range, range-<key>
}

// staticFields is every field's fieldStatic, by key, made once.
var staticFields = sync.OnceValue(func() map[string]fieldStatic {
	m := make(map[string]fieldStatic, len(fleet.Fields))
	for i := range fleet.Fields {
		f := &fleet.Fields[i]
		rangeText := fieldRange(f, 0)
		m[f.Key] = fieldStatic{
			head:   fieldHead(f, rangeText),
			help:   `<p id="help-` + escapeHTML(f.Key) + `" class="help">` + escapeHTML(f.Help) + `</p>`,
			ranged: rangeText != "",
		}
	}
	return m
})

// fieldRange is what f's head says of its allowed values, "" for none.
// Jobs counted in total (totalOf, the workers, > 0) take up to the
// workers × a worker's most: "1 – 1000 per worker" stood over a total of
// 5000 (a learner's review).
func fieldRange(f *fleet.Field, totalOf int) string {
	rangeText := ""
	if f.Min != "" || f.Max != "" {
		rangeText = f.Min + " – " + f.Max
		if f.Unit != "" {
			rangeText += " " + f.Unit
		}
	}
	switch f.Key {
	case "workers":
		rangeText += " (live runs ≤ " + strconv.Itoa(fleet.WorkersRange.Max) + ")"
	case "jobs": // its Max is a worker's
		if totalOf > 0 {
			rangeText = f.Min + " – " + thousands(totalOf*fleet.JobsRange.Max) + " in all (" + f.Max + " a worker)"
		} else {
			rangeText += " per worker"
		}
	// The text fields' forms, short (their message gives the whole rule):
	// they showed none until a value was refused (a learner's review).
	case "target":
		rangeText = "http(s):// URL or empty"
	case "room":
		rangeText = "≤ " + strconv.Itoa(mock.MaxKeyLen) + " of A–Z a–z 0–9 . _ ~ -"
	}
	if f.Kind == fleet.KindDuration && rangeText != "" {
		rangeText += " (e.g. 250ms, 2s)"
	}
	return rangeText
}

// fieldHead is f's label, unit and allowed range (rangeText), as HTML.
func fieldHead(f *fleet.Field, rangeText string) string {
	esc, key := escapeHTML, f.Key
	head := `<div class="field-head"><label for="f-` + esc(key) + `">` + esc(f.Label)
	if f.Unit != "" {
		head += `<span class="unit">` + esc(f.Unit) + `</span>`
	}
	head += `</label>`
	if rangeText != "" {
		head += `<span class="range" id="range-` + esc(key) + `">` + esc(rangeText) + `</span>`
	}
	return head + `</div>`
}
