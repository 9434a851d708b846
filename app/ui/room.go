package ui

import (
	"context"
	"math/rand/v2"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/jsonlite"
)

// Audience devices in a shared room. Each page has a device name
// ("heron-4k2"), put in front of its attempts' tags when it runs in a room
// (fleet.AttemptTag), so a watch of the room draws a lane per device. The
// watch also shows how to join: the room's link on an address the other
// devices can reach (the server's GET /join) and its QR code (GET
// /qr.svg).

// deviceAnimals and three base-36 characters make a device name of at
// most 9 characters (it labels a lane in the timeline's margin): 32×46,656
// names, so two devices of a 30-person room share one about once in 3,000
// rooms.
var deviceAnimals = [...]string{
	"bison", "civet", "crane", "dingo", "egret", "elk", "finch", "fox",
	"gecko", "hare", "heron", "ibis", "kiwi", "koala", "lemur", "lynx",
	"moose", "newt", "okapi", "otter", "owl", "panda", "quail", "raven",
	"seal", "swan", "tapir", "vole", "wolf", "wren", "yak", "zebu",
}

// newDeviceName draws a device name with intn (rand.IntN in the page).
func newDeviceName(intn func(n int) int) string {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	b := []byte(deviceAnimals[intn(len(deviceAnimals))] + "-")
	for range 3 {
		b = append(b, digits[intn(len(digits))])
	}
	return string(b)
}

// deviceStorageKey keeps a tab's device name across reloads (session
// storage: a reload keeps its lane in the presenter's watch; a new tab is
// another device). A duplicated tab copies the storage, and with it the
// name: the pages of a browser claim their names on deviceChannel, and the
// newer of two with one name draws another (renameDevice).
const (
	deviceStorageKey = "retrylab.device"
	deviceChannel    = "retrylab.devices"
)

// storage is what adoptDevice needs of app.BrowserStorage.
type storage interface {
	Get(k string, v any) error
	Set(k string, v any) error
}

// adoptDevice takes the tab's device name from st, or keeps the page's and
// stores it.
func (l *Lab) adoptDevice(st storage) {
	var name string
	if st.Get(deviceStorageKey, &name) == nil && fleet.ValidDevice(name) {
		if name != l.device {
			l.device = name
			l.cfgRev++ // the Shared room field names it: rendered before the mount
		}
		return
	}
	_ = st.Set(deviceStorageKey, l.device)
}

// renameDevice draws the page a new device name, unlike its current one,
// and stores it: another page of this browser holds the current one.
func (l *Lab) renameDevice(st storage) string {
	old := l.device
	for l.device == old {
		l.device = newDeviceName(randIntN)
	}
	_ = st.Set(deviceStorageKey, l.device)
	l.cfgRev++ // the Shared room field names it
	return l.device
}

// asDevice is ", where this page is heron-4k2": the page's name in a shared
// room's watch (its lane there), for the status line; "" without a name.
func (l *Lab) asDevice() string {
	if l.device == "" {
		return ""
	}
	return ", where this page is " + l.device
}

// Device is the page's name in a shared room.
func (l *Lab) Device() string { return l.device }

// roomNote is the note beside the Shared room field: the name this page
// goes by in the room.
func (l *Lab) roomNote() string {
	if l.s.Room == "" || l.s.Target != "" {
		return ""
	}
	note := "This page appears in the room as " + l.device + "."
	if l.drewSeed {
		note += " It drew its own random seed, as every device that joins does: clients in a room jitter independently."
	}
	return note
}

// joinState is what the watch shows about joining the room.
type joinState struct {
	Asked  bool     // the server was asked (GET /join)
	Links  []string // the room's link on each address other devices can reach, in the server's order (IPv4 first); the first is shown
	Hint   string   // why there is none (the server listens on localhost only, …)
	Err    string   // the server could not be asked
	Hidden bool     // the presenter closed the panel for this watch
	Big    bool     // the QR code fills the screen, for the back of the room
	// Workers is how many workers the link gives each device: on a
	// network address past oneOriginFree the browser holds the rest.
	Workers int
}

// joinAnswer is GET /join's body.
type joinAnswer struct {
	LAN     bool     `json:"lan"`
	Origins []string `json:"origins"`
	Hint    string   `json:"hint"`
}

// joinLinks is the room's link, query, for other devices: on the page's
// own address when that is not a loopback one (other devices reached the
// page there), else on each of the server's network origins.
func joinLinks(page *url.URL, query string, origins []string) []string {
	path := "/"
	if page != nil && page.Path != "" {
		path = page.Path
	}
	link := func(scheme, host string) string {
		return (&url.URL{Scheme: scheme, Host: host, Path: path, RawQuery: query}).String()
	}
	if page != nil && page.Host != "" && !localOnlyHost(page.Hostname()) {
		return []string{link(page.Scheme, page.Host)}
	}
	var links []string
	for _, o := range origins {
		if u, err := url.Parse(o); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Path == "" {
			links = append(links, link(u.Scheme, u.Host))
		}
	}
	return links
}

// joinQuery is the configuration a join link carries: the fields that
// differ from the defaults (a link short enough to read off the projector,
// a QR code coarse enough to scan from the back of the room), without a
// seed (the devices are independent clients) or a scheduled outage. The room's server is the presenter's to take down
// (Outage during the watch); each device's run would take it down at its
// own start, and the outages would overlap.
func joinQuery(s fleet.Scenario) string {
	s.Outage, s.OutageAt = 0, fleet.Default().OutageAt
	s.Seed = fleet.Default().Seed // left out: each device draws its own (Lab.Load)
	return s.EncodeChanged()
}

// localOnlyHost reports whether host cannot be used from another device:
// localhost, a subdomain of it, a loopback address, or the unspecified
// address (a page opened at http://0.0.0.0:8080/).
func localOnlyHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && (a.IsLoopback() || a.IsUnspecified())
}

// askJoin asks the server where other devices can reach it (GET /join) for
// the watch's join panel, and stores the answer.
func (l *Lab) askJoin(ctx app.Context) {
	l.join = joinState{Asked: true, Workers: l.s.Workers}
	query := joinQuery(l.s)
	if l.page != nil && !localOnlyHost(l.page.Hostname()) {
		l.join.Links = joinLinks(l.page, query, nil)
		return // the audience reaches the page where it is
	}
	origin, runs := l.pageOrigin(), l.runs
	ctx.Async(func() {
		actx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		js, err := askJoin(actx, origin)
		ctx.Dispatch(func(app.Context) {
			if l.runs != runs {
				return // another watch or run since
			}
			switch {
			case err != nil:
				l.join.Err = "Could not ask the server for its network address: " + err.Error()
			case !js.LAN || len(js.Origins) == 0:
				l.join.Hint = js.Hint
				if l.join.Hint == "" {
					l.join.Hint = "The server reported no address other devices can reach."
				}
			default:
				if l.join.Links = joinLinks(l.page, query, js.Origins); len(l.join.Links) == 0 {
					l.join.Hint = "The server reported no address other devices can reach."
				}
			}
			l.runRev++
		})
	})
}

// askJoin fetches origin's GET /join.
func askJoin(ctx context.Context, origin string) (joinAnswer, error) {
	r, err := browser.Fetch(ctx, origin+"/join")
	if err != nil {
		return joinAnswer{}, err
	}
	if r.Status != 200 {
		return joinAnswer{}, errStatus(r.Status)
	}
	var js joinAnswer
	if err := jsonlite.ReadObject(r.Body, js.member); err != nil {
		return joinAnswer{}, err
	}
	return js, nil
}

type errStatus int

func (e errStatus) Error() string { return "the server answered " + strconv.Itoa(int(e)) }

// qrURL is the address of the QR code of link (GET /qr.svg).
func qrURL(link string) string { return "/qr.svg?text=" + url.QueryEscape(link) }

// JoinPanel shows, during a watch, how audience devices join the room: its
// link on the server's network address, the QR code of it, and how many
// devices have sent requests so far.
type JoinPanel struct {
	app.Compo

	Lab *Lab
	Rev int
}

// Render draws the panel, or nothing outside a watch.
func (p *JoinPanel) Render() app.UI {
	l := p.Lab
	if !l.watched || !l.join.Asked || l.join.Hidden {
		return app.Div().Hidden(true)
	}
	j := l.join
	devices := devicesText(l.wstats.Devices, l.wstats.Arrivals)
	var body []app.UI
	body = append(body, app.Div().Class("join-head").Body(
		app.H2().Text("Join room “"+l.watchRoom+"”"),
		app.Button().ID("join-hide").Class("ghost").Title("Hide the join panel for this watch").Aria("label", "Hide the join panel").Text("✕").
			OnClick(func(ctx app.Context, e app.Event) { l.setJoinHidden(true) }),
	))
	switch {
	case len(j.Links) > 0:
		body = append(body,
			app.P().Text("Scan the code, or open on this network:"),
			app.P().Body(app.A().ID("join-link").Href(j.Links[0]).Target("_blank").Rel("noopener").Text(j.Links[0])),
			app.P().Text("then press Run: every device shares the room's limit, in a lane of its own."),
		)
		if len(j.Links) > 1 {
			more := "Other addresses of this server: " + strings.Join(j.Links[1:], " · ")
			body = append(body, app.P().Class("join-more").Title(more).Text(more))
		}
		if w := joinWorkersNote(j.Workers); w != "" {
			body = append(body, app.P().ID("join-workers").Class("join-warn").Text(w))
		}
	case j.Hint != "":
		body = append(body, app.P().ID("join-hint").Class("join-warn").Text(j.Hint))
	case j.Err != "":
		body = append(body, app.P().ID("join-hint").Class("join-warn").Text(j.Err))
	default:
		body = append(body, app.P().Text("Asking the server for its network address…"))
	}
	body = append(body, app.P().ID("join-devices").Class("join-devices").Text(devices))
	zoomLabel := "Enlarge the QR code, for the back of the room"
	// The code on the left, the text on its right with ✕ in the panel's
	// top right corner.
	return app.Section().ID("join").Class("join").Aria("label", "Join the room").Body(
		app.If(len(j.Links) > 0, func() app.UI {
			// A button around the code: a click (or Enter) enlarges it to
			// fill the screen (JoinOverlay), another puts it back.
			return app.Button().ID("join-zoom").Class("join-zoom").Title(zoomLabel).Aria("label", zoomLabel).
				Aria("pressed", strconv.FormatBool(j.Big)).
				OnClick(func(ctx app.Context, e app.Event) { l.setJoinBig(!l.join.Big) }).
				Body(app.Img().ID("join-qr").Class("join-qr").Src(qrURL(j.Links[0])).Alt("QR code of " + j.Links[0]))
		}),
		app.Div().Class("join-text").Body(body...),
	)
}

// joinWorkersNote warns the presenter when the join link gives each device
// more workers than a browser sends at once to one origin, as a device
// calls the room on the network address: the rest wait in the browser. A
// review's phones each ran 50 workers, browser queue p99 436 ms, and only
// the phones said so. "" when they fit.
func joinWorkersNote(workers int) string {
	if workers <= oneOriginFree {
		return ""
	}
	return "Each device runs " + strconv.Itoa(workers) + " workers, and on this address its browser sends at most " + strconv.Itoa(oneOriginFree) +
		" requests at once: the rest wait in it. For the room's truest picture, Stop, set Workers to " + strconv.Itoa(oneOriginFree) + " or fewer, and Watch room again."
}

// devicesText says how many devices of the room have sent requests, of the
// arrivals the watch counted. Requests without a device name (curl, a
// script, a burst) are the others lane's: with none from a device, "No
// device has sent a request yet" stood beside 53 requests received.
func devicesText(devices, arrivals int) string {
	switch {
	case devices == 1:
		return "1 device has sent requests."
	case devices > 1:
		return strconv.Itoa(devices) + " devices have sent requests."
	case arrivals == 1:
		return "No device has sent a request yet: the 1 request received came from a client without a device name (the others lane: curl, a script, a burst)."
	case arrivals > 1:
		return "No device has sent a request yet: the " + strconv.Itoa(arrivals) + " requests received came from clients without a device name (the others lane: curl, a script, a burst)."
	}
	return "No device has sent a request yet."
}

// joinLine is what the run bar's endpoint line shows during a watch: the
// room's link, or why there is none.
func (l *Lab) joinLine() string {
	switch j := l.join; {
	case len(j.Links) > 0:
		return j.Links[0]
	case j.Hint != "":
		return j.Hint
	case j.Err != "":
		return j.Err
	}
	return "Asking the server for its network address…"
}

// setJoinHidden hides the join panel (✕) or shows it again (the run bar's
// Show join panel, for latecomers), and moves the focus to the control
// that undoes it: the focus was left on the page's body when ✕ went away.
func (l *Lab) setJoinHidden(hidden bool) {
	l.join.Hidden, l.join.Big = hidden, false
	l.runRev++
	if hidden {
		_ = browser.Focus("join-show")
	} else {
		_ = browser.Focus("join-hide")
	}
}

// setJoinBig enlarges the QR code or puts it back, and moves the focus to
// the code that puts it back, or to the one that enlarges it.
func (l *Lab) setJoinBig(big bool) {
	l.join.Big = big
	l.runRev++
	if big {
		_ = browser.Focus("join-unzoom")
	} else {
		_ = browser.Focus("join-zoom")
	}
}

// joinBig reports whether the enlarged QR code is up (JoinOverlay): the
// page behind it is then inert.
func (l *Lab) joinBig() bool {
	return l.watched && l.join.Big && !l.join.Hidden && len(l.join.Links) > 0
}

// JoinOverlay is the join panel's QR code enlarged to fill the screen, for
// the back of the room: a modal dialog over the page (the page behind is
// inert), with the link under the code. A click on the code, or Escape,
// puts it back. The shortcuts dialog opens over it (the code inert behind).
type JoinOverlay struct {
	app.Compo

	Lab *Lab
	Rev int
}

// Render draws the enlarged code, or nothing.
func (o *JoinOverlay) Render() app.UI {
	l := o.Lab
	j := l.join
	if !l.joinBig() {
		return app.Div().Hidden(true)
	}
	label := "Put the QR code back"
	big := app.Div().ID("join-big").Class("join-big").Role("dialog").Aria("modal", "true")
	if l.help { // an inert attribute set to "false" is inert all the same
		big = big.Attr("inert", true)
	}
	return big.Aria("label", "Join room “"+l.watchRoom+"”").Body(
		app.Button().ID("join-unzoom").Class("join-zoom").Title(label).Aria("label", label).
			OnClick(func(ctx app.Context, e app.Event) { l.setJoinBig(false) }).
			Body(app.Img().ID("join-qr-big").Class("join-qr").Src(qrURL(j.Links[0])).Alt("QR code of "+j.Links[0])),
		app.P().Body(app.A().Href(j.Links[0]).Target("_blank").Rel("noopener").Text(j.Links[0])),
	)
}

// randIntN is the page's source of device names.
var randIntN = rand.IntN
