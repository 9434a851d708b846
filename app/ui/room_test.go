package ui

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/core"
)

// watchedView is a view that watched evs, the server's stream, and ended
// at end, drawn once.
func watchedView(t *testing.T, end time.Time, evs ...mock.Event) *view {
	t.Helper()
	v := newView()
	v.startWatch(fleet.Default(), t0)
	for i, ev := range evs {
		b, _ := json.Marshal(ev)
		if c := v.onServerEvent(string(b)); c != "" {
			t.Fatalf("event %d taken for the connection's %q", i, c)
		}
	}
	v.finish(end)
	v.mu.Lock()
	v.redraw()
	v.mu.Unlock()
	return v
}

// A finished watch is walked with the keyboard, as a run's attempts are:
// left/right along a device's lane, up/down to the nearest arrival of the
// next device, home/end, Enter says all of it; and it has a text
// alternative counting what reached the server. The canvas promised both
// and gave neither (an accessibility review).
func TestWatchIsWalkedAndSaid(t *testing.T) {
	v := watchedView(t, at(2000),
		mock.Event{Type: "arrival", Seq: 1, Tag: "heron-4k2.w0.j0.a1", At: at(100), Outcome: "ok", Status: 200},
		mock.Event{Type: "arrival", Seq: 2, Tag: "otter-x1y.w3.j0.a1", At: at(200), Outcome: "limited", Status: 429},
		mock.Event{Type: "arrival", Seq: 3, Tag: "heron-4k2.w1.j0.a2", At: at(1400), Outcome: "ok", Status: 200},
		mock.Event{Type: "arrival", Seq: 4, Tag: "otter-x1y.w3.j0.a2", At: at(1500), Outcome: "failed", Status: 500},
		mock.Event{Type: "arrival", Seq: 5, Tag: "heron-4k2.w2.j0.a1", At: at(1900), Outcome: "limited", Status: 429},
	)
	said := func() string {
		t.Helper()
		tp, ok := v.selection()
		if !ok {
			return ""
		}
		return tp.Title + ": " + tp.Said
	}
	for i, step := range []struct{ key, want string }{
		{"ArrowRight", "Arrival #1 from heron-4k2: 200 OK"}, // the first key selects the earliest
		{"ArrowRight", "Arrival #3 from heron-4k2"},
		{"ArrowDown", "Arrival #4 from otter-x1y"}, // nearest in time: 1.5 s, not 0.2 s
		{"ArrowDown", "Arrival #4 from otter-x1y"}, // no lane below
		{"Home", "Arrival #2 from otter-x1y: 429"},
		{"ArrowUp", "Arrival #1 from heron-4k2"},
		{"End", "Arrival #5 from heron-4k2"},
		{"Enter", "client's tag: heron-4k2.w2.j0.a1"},
	} {
		if !v.key(step.key) {
			t.Fatalf("step %d: %s not handled", i, step.key)
		}
		if got := said(); !strings.Contains(got, step.want) {
			t.Errorf("step %d, %s: said %q, want %q in it", i, step.key, got, step.want)
		}
	}
	if !v.key("Escape") || said() != "" {
		t.Errorf("Escape left %q selected", said())
	}

	st := v.watchStats()
	st.For = 2 * time.Second
	got := v.describeWatch("workshop", st, time.Second)
	for _, want := range []string{
		"Timeline of the watch of room “workshop” over 2.00 s: 5 requests reached the server from 2 devices (2 allowed, 2 rejected with 429 or 503, 1 failed)",
		"Requests received per 1 s: 0 s–1 s 2 (1 rejected); 1 s–2 s 3 (1 rejected, 1 failed).",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the watch's summary\n%s\nwant %q in it", got, want)
		}
	}
}

// A watch draws a lane per device in the room, in the order each was first
// heard from, and one for the arrivals with no device name (curl, a burst);
// each arrival is drawn in its device's lane as well as the server panel.
func TestWatchLanesPerDevice(t *testing.T) {
	v := watchedView(t, at(1000),
		mock.Event{Type: "arrival", Seq: 1, Tag: "heron-4k2.w0.j0.a1", At: at(100), Outcome: "ok", Status: 200},
		mock.Event{Type: "arrival", Seq: 2, Tag: "otter-x1y.w3.j0.a1", At: at(200), Outcome: "limited", Status: 429},
		mock.Event{Type: "arrival", Seq: 3, Tag: "burst", At: at(300), Outcome: "limited", Status: 429},
		mock.Event{Type: "arrival", Seq: 4, Tag: "heron-4k2.w1.j0.a2", At: at(400), Outcome: "ok", Status: 200},
		mock.Event{Type: "arrival", Seq: 5, At: at(500), Outcome: "ok", Status: 200}, // curl: no tag
		mock.Event{Type: "arrival", Seq: 6, Tag: "Bad_Name.w0.j0.a1", At: at(600), Outcome: "ok", Status: 200},
	)
	v.mu.Lock()
	defer v.mu.Unlock()
	m := v.m
	if want := []string{"heron-4k2", "otter-x1y", ""}; !slices.Equal(m.devices, want) {
		t.Fatalf("devices %q, want %q", m.devices, want)
	}
	var lanes []int
	for _, a := range m.arrivals {
		lanes = append(lanes, a.dev)
	}
	if want := []int{0, 1, 2, 0, 2, 2}; !slices.Equal(lanes, want) {
		t.Errorf("arrivals' lanes %v, want %v", lanes, want)
	}
	if m.wcount.Devices != 2 {
		t.Errorf("devices counted %d, want 2 (arrivals without a name are not a device)", m.wcount.Devices)
	}
	l := v.lay
	if l.workers != 3 || len(l.names) != 3 {
		t.Fatalf("layout has %d lanes named %q, want the 3 devices'", l.workers, l.names)
	}
	var o browser.Ops
	paint(&o, &l, m, frameInput{th: &normalTheme})
	for i, want := range []string{"heron-4k2", "otter-x1y", "others"} {
		y, ok := textY(&o, want)
		if !ok || y != float64(float32(l.laneY(i))) {
			t.Errorf("lane label %q at y %v (drawn %v), want %v", want, y, ok, l.laneY(i))
		}
	}
	if _, ok := textY(&o, "devices"); !ok {
		t.Error("no devices title over the lanes")
	}
	if _, ok := textY(&o, "workers"); ok {
		t.Error("a watch's lanes are titled workers")
	}
	// Each arrival's shape in its lane, at its time.
	inLanes := map[[2]float32]bool{}
	for _, op := range displayOps(&o) {
		if op.code == 7 && op.args[2] >= float32(l.lanesTop) && op.args[2] <= float32(l.histTop) {
			inLanes[[2]float32{op.args[1], op.args[2]}] = true
		}
	}
	for i, a := range m.arrivals {
		if !inLanes[[2]float32{float32(l.x(a.at)), float32(l.laneY(a.dev))}] {
			t.Errorf("arrival %d not drawn in lane %d", i+1, a.dev)
		}
	}
	if len(inLanes) != len(m.arrivals) {
		t.Errorf("%d shapes in the lanes for %d arrivals", len(inLanes), len(m.arrivals))
	}

	// Hovering one in its lane describes it, names its device, and rings
	// it in the lane and the server panel.
	a := m.arrivals[3]
	x, y := l.x(a.at), l.laneY(a.dev)
	v.mu.Unlock()
	v.pointer(x+1, y+1)
	tp, ok := v.selection()
	v.mu.Lock()
	if !ok || tp.Title != "Arrival #4 from heron-4k2" || tp.Y != y {
		t.Errorf("tooltip %+v (%v), want arrival #4 from heron-4k2 at y %v", tp, ok, y)
	}
	var ov browser.Ops
	paintOverlay(&ov, &l, m, &normalTheme, x, -1, 3, -1)
	rings := 0
	for _, op := range displayOps(&ov) {
		if op.code == 7 && (op.args[2] == float32(y) || op.args[2] == float32(l.srvY(a.seq))) {
			rings++
		}
	}
	if rings != 2 {
		t.Errorf("%d rings around the hovered arrival, want 2 (its lane, the server panel)", rings)
	}
}

// A long device name is cut to the lanes' margin.
func TestLaneNameFitsTheMargin(t *testing.T) {
	l := newLayout(1000, 2, time.Second, &normalTheme)
	l.names = []string{strings.Repeat("z", fleet.DeviceMaxLen), "wren-abc"}
	if got := l.laneName(1); got != "wren-abc" {
		t.Errorf("lane 1 %q", got)
	}
	got := l.laneName(0)
	if w := smallWidth(got, l.scale); !strings.HasSuffix(got, "…") || w > l.left {
		t.Errorf("lane 0 %q (%.0f px) for a margin of %.0f px", got, w, l.left)
	}
	if l.names = nil; l.laneName(7) != "w8" {
		t.Errorf("worker lane %q", l.laneName(7))
	}
}

func TestNewDeviceName(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for range 1000 {
		name := newDeviceName(r.IntN)
		if !fleet.ValidDevice(name) || len(name) > 9 {
			t.Fatalf("%q is not a valid device name of at most 9 characters", name)
		}
		if l := newLayout(1000, 1, time.Second, &normalTheme); func() bool { l.names = []string{name}; return l.laneName(0) != name }() {
			t.Fatalf("%q is cut in the lanes' margin", name)
		}
		if tag := fleet.AttemptTag(name, 499, 999, 1000); !mock.ValidKey(tag) {
			t.Fatalf("tag %q is not a valid mock tag", tag)
		}
		seen[name] = true
	}
	if len(seen) < 990 {
		t.Errorf("%d different names in 1000", len(seen))
	}
}

// A tab keeps its device name across reloads (session storage); a stored
// name that is not a device name is replaced.
func TestAdoptDevice(t *testing.T) {
	st := &fakeStorage{m: map[string]string{}}
	l := newLab()
	first := l.device
	l.adoptDevice(st)
	if l.device != first || st.m[deviceStorageKey] != `"`+first+`"` {
		t.Fatalf("device %q, stored %q", l.device, st.m[deviceStorageKey])
	}
	again := newLab()
	again.device = "wren-000" // drawn anew on the reload
	rev := again.cfgRev
	again.adoptDevice(st)
	if again.device != first || again.cfgRev == rev {
		t.Errorf("after a reload %q (controls revision %d → %d), want %q and the controls rendered again", again.device, rev, again.cfgRev, first)
	}
	st.m[deviceStorageKey] = `"Not A Name"`
	third := newLab()
	third.adoptDevice(st)
	if !fleet.ValidDevice(third.device) || third.device == "Not A Name" || st.m[deviceStorageKey] != `"`+third.device+`"` {
		t.Errorf("a bad stored name: device %q, stored %q", third.device, st.m[deviceStorageKey])
	}
}

// fakeStorage keeps values as go-app's BrowserStorage does, as JSON, and
// like its browser build (app/go-app.patch) takes only strings and bools.
type fakeStorage struct{ m map[string]string }

func (s *fakeStorage) Set(k string, v any) error {
	switch v.(type) {
	case string, bool:
	default:
		return fmt.Errorf("fakeStorage: the browser build of go-app stores only strings and bools, not %T", v)
	}
	b, err := json.Marshal(v)
	s.m[k] = string(b)
	return err
}
func (s *fakeStorage) Get(k string, v any) error {
	if b, ok := s.m[k]; ok {
		return json.Unmarshal([]byte(b), v)
	}
	return nil
}

// A page in a room sends its device name in front of each attempt's tag;
// alone, it does not.
func TestRoomAttemptsCarryTheDevice(t *testing.T) {
	page, _ := url.Parse("http://localhost:8080/")
	for _, c := range []struct {
		room, want string
	}{{"", "tag=w7.j1.a2"}, {"room1", "tag=heron-4k2.w7.j1.a2"}} {
		s := fleet.Default()
		s.Room = c.room
		tr := newFetchTransport(page, nil, s, "run-x", "heron-4k2")
		u := tr.url(7, 1, 2)
		if !strings.HasSuffix(u, "&"+c.want) {
			t.Errorf("room %q: %s, want it to end in %s", c.room, u, c.want)
		}
	}
}

func TestJoinLinks(t *testing.T) {
	const q = "room=room1&workers=20"
	for _, c := range []struct {
		page    string
		origins []string
		want    []string
	}{
		{"http://localhost:8080/", []string{"http://192.168.1.7:8080", "http://[2001:db8::7]:8080"},
			[]string{"http://192.168.1.7:8080/?" + q, "http://[2001:db8::7]:8080/?" + q}},
		{"http://127.0.0.1:8080/lab", []string{"http://10.0.0.5:8080"}, []string{"http://10.0.0.5:8080/lab?" + q}},
		{"http://w3.localhost:8080/", []string{"http://10.0.0.5:8080"}, []string{"http://10.0.0.5:8080/?" + q}},
		// Opened on the network already: that address is reachable.
		{"http://10.0.0.5:8080/", []string{"http://192.168.1.7:8080"}, []string{"http://10.0.0.5:8080/?" + q}},
		{"http://lab.example:8080/", nil, []string{"http://lab.example:8080/?" + q}},
		// What is not an origin is left out.
		{"http://localhost:8080/", []string{"", "ftp://10.0.0.5", "http://10.0.0.5:8080/x", "10.0.0.5:8080", "http://10.0.0.6:8080"},
			[]string{"http://10.0.0.6:8080/?" + q}},
		{"http://localhost:8080/", nil, nil},
		// An IPv6 zone stays escaped; an escaped path stays escaped.
		{"http://localhost:8080/a%20b/", []string{"http://[fe80::1%25eth0]:9000"}, []string{"http://[fe80::1%25eth0]:9000/a%20b/?" + q}},
		// A page opened on the unspecified address is not reachable there.
		{"http://0.0.0.0:8080/", []string{"http://10.0.0.5:8080"}, []string{"http://10.0.0.5:8080/?" + q}},
	} {
		page, _ := url.Parse(c.page)
		if got := joinLinks(page, q, c.origins); !slices.Equal(got, c.want) {
			t.Errorf("joinLinks(%s, %q) = %q, want %q", c.page, c.origins, got, c.want)
		}
	}
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST.": true, "w3.localhost": true, "127.0.0.1": true, "127.8.9.1": true, "::1": true,
		"0.0.0.0": true, "::": true,
		"10.0.0.5": false, "192.168.1.7": false, "2001:db8::7": false, "lab.example": false, "notlocalhost": false, "": false,
	} {
		if got := localOnlyHost(host); got != want {
			t.Errorf("localOnlyHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// The room field's line names the page's device, in a room on the mock.
func TestRoomNote(t *testing.T) {
	l := newLab()
	l.device = "heron-4k2"
	if n := l.roomNote(); n != "" {
		t.Errorf("no room: note %q", n)
	}
	l.Set("room", "room1")
	if n := l.roomNote(); n != "This page appears in the room as heron-4k2." {
		t.Errorf("note %q", n)
	}
	l.Set("target", "http://api.example/x")
	if n := l.roomNote(); n != "" {
		t.Errorf("custom target: note %q", n)
	}
}

// A page told that another page of the browser holds its device name (a
// duplicated tab) draws another, never the same again, and stores it.
func TestRenameDevice(t *testing.T) {
	st := &fakeStorage{m: map[string]string{}}
	l := newLab()
	l.device = newDeviceName(func(int) int { return 0 })
	old, rev := l.device, l.cfgRev
	draws := 0
	defer func(f func(int) int) { randIntN = f }(randIntN)
	randIntN = func(n int) int { // the same name first, then another
		draws++
		if draws <= 4 {
			return 0
		}
		return 1
	}
	got := l.renameDevice(st)
	if got == old || got != l.device || !fleet.ValidDevice(got) || draws != 8 {
		t.Errorf("renamed %q → %q (%d draws): want another valid name, drawn again when the first draw repeats the old", old, got, draws)
	}
	if st.m[deviceStorageKey] != `"`+got+`"` || l.cfgRev == rev {
		t.Errorf("stored %q, controls revision %d → %d: want the new name stored and the controls rendered again", st.m[deviceStorageKey], rev, l.cfgRev)
	}
}

// A join link carries the presenter's changed fields and the room, but not
// a scheduled outage: each device's run would take the room down at its
// own start.
func TestJoinQuery(t *testing.T) {
	s := fleet.Default()
	s.Room, s.Workers, s.Outage, s.OutageAt = "room1", 20, 3*time.Second, 2*time.Second
	q := joinQuery(s)
	back, errs := fleet.FromQuery(mustParseQuery(t, q))
	if len(errs) != 0 || back.Room != "room1" || back.Workers != 20 || back.Outage != 0 || strings.Contains(q, "outage") {
		t.Errorf("join query %q: room %q, workers %d, outage %v, errors %v", q, back.Room, back.Workers, back.Outage, errs)
	}
	if s.Outage != 3*time.Second {
		t.Error("joinQuery changed the presenter's configuration")
	}
}

func mustParseQuery(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Presentation mode is remembered in local storage: a projector's page
// reloaded, or opened from a shared link, comes back in it, and switched
// off it stays off.
func TestPresentIsRemembered(t *testing.T) {
	st := &fakeStorage{m: map[string]string{}}
	l := newLab()
	l.adoptPresent(st)
	if l.present {
		t.Fatal("presentation mode on with nothing stored")
	}
	l.TogglePresent(st)
	if !l.present || st.m[presentStorageKey] != "true" {
		t.Fatalf("toggled on: present %v, stored %q", l.present, st.m[presentStorageKey])
	}
	again := newLab()
	rev := again.runRev
	again.adoptPresent(st)
	if !again.present || again.view.theme.name != "present" || again.runRev == rev {
		t.Errorf("after a reload: present %v, theme %q, revision %d → %d", again.present, again.view.theme.name, rev, again.runRev)
	}
	again.TogglePresent(st)
	third := newLab()
	third.adoptPresent(st)
	if third.present || st.m[presentStorageKey] != "false" {
		t.Errorf("switched off, then reloaded: present %v, stored %q", third.present, st.m[presentStorageKey])
	}
	st.m[presentStorageKey] = `"yes"`
	fourth := newLab()
	fourth.adoptPresent(st)
	if fourth.present {
		t.Error("a stored value that is not a boolean switched presentation mode on")
	}
}

// In a watch the limit line is the watching page's own setting; the room's
// limiter follows whichever device asked last. When the room's requests
// carried another quota, the label says so; a halved limit's quota is
// still this setting's.
func TestWatchLimitLabelSaysWhenDevicesAskedForOthers(t *testing.T) {
	s := fleet.Default()
	s.Mock.Limiter, s.Mock.Rate, s.Mock.Burst = core.LimitTokenBucket, 10, 10
	lim := limitsOf(&s)
	m := newModel(t0, 0)
	m.room, m.watch = true, true
	arrive := func(seq, quota int) {
		m.serverEvent(&mock.Event{Type: "arrival", Seq: uint64(seq), At: at(seq * 10), Outcome: "ok", Status: 200, Limit: quota, Tag: "heron-4k2.w0.j0.a1"})
	}
	arrive(1, 10)
	m.serverEvent(&mock.Event{Type: "limit", At: at(20), Until: at(5000), Scale: 0.5})
	arrive(2, 5) // halved: still this setting
	if got := watchLimitLabel(lim, m.quotas, []float64{0.5}); got != lim.serverLabel {
		t.Errorf("own quotas only: %q, want %q", got, lim.serverLabel)
	}
	arrive(3, 100) // a device with burst 100
	if got := watchLimitLabel(lim, m.quotas, []float64{0.5}); !strings.HasPrefix(got, lim.serverLabel) || !strings.Contains(got, "devices asked for others") {
		t.Errorf("another device's quota: %q", got)
	}
	if len(m.quotas) != 3 {
		t.Errorf("quotas %v, want 10, 5, 100", m.quotas)
	}
}

// A burst's message names who shares what is left: a run's fleet, or in a
// watch (no fleet of ours) the room's devices.
func TestBurstTextNamesWhoShares(t *testing.T) {
	body := `{"n":20,"allowed":3,"rejected":17}`
	if got := burstText(body, false); got != "Another client sent 20 requests at once: 3 admitted, 17 rejected — the fleet shares what is left of the limit" {
		t.Errorf("run: %q", got)
	}
	if got := burstText(body, true); !strings.HasSuffix(got, "the room's devices share what is left of the limit") || strings.Contains(got, "fleet") {
		t.Errorf("watch: %q", got)
	}
	// During an outage the limit is not what rejected them (a review).
	if got := burstText(`{"n":20,"allowed":0,"rejected":20,"outage":20}`, true); got != "Another client sent 20 requests at once: all 20 rejected, the server being down (Outage)" {
		t.Errorf("during an outage: %q", got)
	}
	if got := burstText(`{"n":20,"allowed":0,"rejected":20,"outage":12}`, false); got != "Another client sent 20 requests at once: 0 admitted, 20 rejected (12 by the outage) — the fleet shares what is left of the limit" {
		t.Errorf("an outage ending: %q", got)
	}
	if got := burstText("<html>", true); got != "Burst: the server's answer was not understood" {
		t.Errorf("garbage: %q", got)
	}
}
