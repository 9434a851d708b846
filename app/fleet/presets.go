package fleet

import "net/url"

// Preset is one step of the story the page tells. Query holds overrides on
// top of Default (FromQuery(p.Query) is the preset's Scenario); every preset
// sets all the fields its point depends on, so changing Default does not
// change what a preset shows.
type Preset struct {
	ID      string     // stable id for links and keyboard shortcuts: "flood", …
	Title   string     // short, for the button
	Caption string     // a sentence or two shown beside it: what to look for
	Query   url.Values // overrides on top of Default
}

// Scenario returns the preset's configuration.
func (p Preset) Scenario() Scenario {
	s, _ := FromQuery(p.Query)
	return s
}

// PresetByID returns the preset with the given ID.
func PresetByID(id string) (Preset, bool) {
	for _, p := range Presets {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}

// storyStage is what every preset shares: one endpoint and one fleet, so
// that only the client's retry behaviour changes from step to step.
//
// The endpoint is a token bucket of 10 req/s with a burst of 10 that sends
// Retry-After in whole seconds (always "1" at this rate), answering in 50 ms.
// 50 workers with 2 jobs each (100 jobs, all starting at once) need at least
// 9 s at that rate, so every preset drains in 10–25 s: long enough to watch,
// short enough for a workshop. Measured in virtual time against the real mock
// handler (TestPresetsTellTheStory; Simulate gives the same, and
// TestPresetCaptionsMatchSimulation holds every claim of the captions below
// to it). Live runs in the page vary more: a review measured the flood's
// 429s 20–35% under the simulation's (256–293 against 350), each herd's
// return a little late and the bucket a little fuller, and under load the
// numbers audit saw 287 requests against 450. The captions' claims held
// live at every step:
//
//	preset        429s  drain   dispersion (retries per 100 ms)  peak arrivals/s
//	flood          350  18.5 s  36                               60
//	exponential   ~310  23 s    26                              ~160
//	full-jitter   ~300  13.5 s   9                              ~200
//	retry-after   ~180  10 s     2                               ~60
//	outage        ~400  12.6 s  36 (60 attempts in 100 ms at 6.2 s) 60
//	bucket           0  12.4 s   0 (no retries)                   8
//
// The last preset, open arrivals, changes the workload instead: 250 jobs
// arriving at 17 per second for 15 s, against the same limit (simulated:
// 641 429s of 882 requests, 92 jobs in progress at once, drain 24 s).
var storyStage = map[string]string{
	"workers":     "50",
	"jobs":        "2",
	"jobs_of":     "worker",
	"workload":    "closed",
	"every":       "1s",
	"arrivals":    "steady",
	"timeout":     "5s",
	"seed":        "1",
	"attempts":    "10",
	"elapsed":     "0s",
	"ra_ceiling":  "30s",
	"ra_above":    "clamp",
	"hints":       "off",
	"budget":      "off",
	"target":      "",
	"room":        "",
	"limiter":     "bucket",
	"rate":        "10",
	"burst":       "10",
	"status":      "429",
	"retry_after": "seconds",
	"headers":     "none",
	"latency":     "50ms",
	"spread":      "0s",
	"fail500":     "0",
	"fail503":     "0",
	"drop":        "0",
	"hang":        "0",
	"outage":      "0s",
	"outage_at":   "5s",
}

// stage is a preset's query: storyStage with overrides on top. Not inlined:
// see the package doc, "Start-up in the browser".
//
//go:noinline
func stage(overrides map[string]string) url.Values {
	q := url.Values{}
	for k, v := range storyStage {
		q.Set(k, v)
	}
	for k, v := range overrides {
		q.Set(k, v)
	}
	return q
}

// Presets tell the seed's story, in order: the synchronized flood, then
// exponential backoff without jitter, full jitter, honouring Retry-After
// (with spread, and then without it after a server outage: the herd it
// makes), and a fleet token bucket; then what none of them can fix, an
// open workload. Treat it as read-only.
var Presets = []Preset{
	{
		ID:    "flood",
		Title: "Synchronized flood",
		Caption: "Every worker that gets a 429 waits exactly 2 s and retries. The ones rejected together " +
			"come back together: a spike every 2 s, the limit lets about 10 through, the rest are rejected again.",
		Query: stage(map[string]string{
			"strategy": "constant", "base": "2s",
			"ra_honour": "off", "ra_spread": "0s", "bucket": "off",
		}),
	},
	{
		ID:    "exponential",
		Title: "Exponential, no jitter",
		Caption: "Waits double (0.2 s, 0.4 s, 0.8 s … up to 10 s), but every worker rejected in the same " +
			"instant computes the same wait: the spikes just move further apart, and the run takes even longer.",
		Query: stage(map[string]string{
			"strategy": "exponential", "base": "100ms", "mult": "2", "cap": "10s",
			"ra_honour": "off", "ra_spread": "0s", "bucket": "off",
		}),
	},
	{
		ID:    "full-jitter",
		Title: "Full jitter",
		Caption: "Each wait is drawn at random between 0 and the exponential value: retries spread out " +
			"instead of arriving in spikes (their dispersion falls to about a quarter of the flood's), and the run drains sooner: in about three quarters of the flood's time, under two thirds of exponential's. The busiest second gets busier, though: " +
			"the first waits are guesses of 0–0.2 s, so it holds several rounds of retries. Jitter spreads retries; the next steps make fewer.",
		Query: stage(map[string]string{
			"strategy": "full", "base": "100ms", "mult": "2", "cap": "10s",
			"ra_honour": "off", "ra_spread": "0s", "bucket": "off",
		}),
	},
	{
		ID:    "retry-after",
		Title: "+ honour Retry-After",
		Caption: "The server says when it will have room (Retry-After: 1). Waiting that long, plus up to " +
			"1 s of spread so the herd does not return in one millisecond, beats guessing: over a third fewer 429s than full jitter.",
		Query: stage(map[string]string{
			"strategy": "full", "base": "100ms", "mult": "2", "cap": "10s",
			"ra_honour": "on", "ra_spread": "1s", "bucket": "off",
		}),
	},
	{
		ID:    "outage",
		Title: "Outage, no spread",
		Caption: "The client of “+ honour Retry-After” without its spread, and the server goes down from 3 s to 6 s, telling " +
			"every request the seconds left. Once it is back the fleet returns in a herd (simulated, all 50 workers within a tenth of a second; live, within a few tenths, or as two herds a second apart), and every wave the limit turns away " +
			"is told “1” and returns in step again: Retry-After alone synchronizes. Set Retry-After spread to 1 s and run it again.",
		Query: stage(map[string]string{
			"strategy": "full", "base": "100ms", "mult": "2", "cap": "10s",
			"ra_honour": "on", "ra_spread": "0s", "bucket": "off",
			"outage": "3s", "outage_at": "3s",
		}),
	},
	{
		ID:    "bucket",
		Title: "+ fleet token bucket",
		Caption: "One bucket shared by the fleet starts 8 attempts per second, under the server's 10: requests wait on the client " +
			"instead of being rejected. No 429s, no retries. (A second can hold 9 with the bucket's one saved token, and live one or " +
			"two more when the page's thread held sends back.)",
		Query: stage(map[string]string{
			"strategy": "full", "base": "100ms", "mult": "2", "cap": "10s",
			"ra_honour": "on", "ra_spread": "1s",
			"bucket": "on", "bucket_rate": "8", "bucket_cap": "1",
		}),
	},
	{
		ID:    "open",
		Title: "Open arrivals",
		Caption: "The client of “+ honour Retry-After”, but jobs now arrive on a schedule, done or not: each worker gets one every 3 s, " +
			"17 per second against a limit of 10. Backing off spaces out each job's retries but cannot slow the arrivals: after the first second, 429s come in every second while the arrivals last and for seconds after, " +
			"and the jobs in progress pile up past the 50 workers. Backoff lowers the load only when clients wait for their previous request.",
		Query: stage(map[string]string{
			"workload": "open", "every": "3s", "jobs": "5",
			"strategy": "full", "base": "100ms", "mult": "2", "cap": "10s",
			"ra_honour": "on", "ra_spread": "1s", "bucket": "off",
		}),
	},
}
