// The configuration kept: in the page's link (shared, reloaded), and as
// the draft of what was typed, restored after a reload.

package ui

import (
	"maps"
	"net/url"

	"retrylab/app/browser"
	"retrylab/app/fleet"
)

// Commit puts what was typed into a text input in the address bar, once
// the user leaves it or presses Enter (its change event).
func (l *Lab) Commit() { l.saveURL() }

// saveURL puts the configuration in the address bar when it is valid, and
// keeps what was typed since in the tab otherwise (saveDraft).
func (l *Lab) saveURL() {
	if l.Invalid() == 0 {
		l.saved = l.s
		l.address = l.query()
		_ = browser.ReplaceURL("?" + l.address)
	}
	l.saveDraft()
}

// draftStorageKey keeps, in the tab's session storage, what was typed into
// the fields since the address bar last took the configuration, with the
// address it was typed over. The address bar holds only valid
// configurations, as committed (Type), so without it a reload would lose
// the typing, the value not allowed with it: nothing a user typed is lost.
const draftStorageKey = "retrylab.draft"

// draft is what draftStorageKey holds, written as a query (draft.String,
// parseDraft): the browser build of go-app stores only strings and bools
// (app/go-app.patch).
type draft struct {
	Query string            // the address bar's query (Lab.address) the texts were typed over
	Texts map[string]string // field key → text, for each field that differs from it
}

// draftQueryKey holds a draft's Query among its texts: no field's key.
const draftQueryKey = "@query"

// String writes d as a query: its texts by field key, and its Query; ""
// when it has no texts.
func (d draft) String() string {
	if d.Texts == nil {
		return ""
	}
	v := url.Values{draftQueryKey: {d.Query}}
	for k, t := range d.Texts {
		v.Set(k, t)
	}
	return v.Encode()
}

// parseDraft reads a draft written by String; anything else is no draft.
func parseDraft(s string) draft {
	v, err := url.ParseQuery(s)
	if err != nil || !v.Has(draftQueryKey) {
		return draft{}
	}
	d := draft{Query: v.Get(draftQueryKey), Texts: make(map[string]string, len(v)-1)}
	for k, t := range v {
		if k != draftQueryKey {
			d.Texts[k] = t[0]
		}
	}
	return d
}

// saveDraft stores the fields whose text differs from the address's
// configuration (a value not allowed, or one typed and not yet committed),
// and clears the draft once none does.
func (l *Lab) saveDraft() {
	if l.drafts == nil {
		return
	}
	var d draft
	for i := range fleet.Fields {
		f := &fleet.Fields[i]
		// A value not allowed, or one that differs from the address's: a
		// text that differs only in how it is written ("1500ms" for the
		// address's 1.5s) is no draft, and kept none once committed.
		if _, bad := l.fieldErrs[f.Key]; bad || f.Get(&l.s) != f.Get(&l.saved) {
			if d.Texts == nil {
				d.Texts = map[string]string{}
			}
			d.Texts[f.Key] = l.texts[f.Key]
		}
	}
	if d.Texts == nil && !l.drafted {
		return // nothing kept, nothing to clear
	}
	d.Query = l.address // the address bar's, not that of the values typed since
	_ = l.drafts.Set(draftStorageKey, d.String())
	l.drafted = d.Texts != nil
}

// adoptDraft keeps st for the drafts and, when the tab holds one typed over
// this very address (a reload), types it into the fields again: their
// messages come back with it, and Run is disabled again.
func (l *Lab) adoptDraft(st storage) {
	l.drafts = st
	var text string
	if st.Get(draftStorageKey, &text) != nil {
		return
	}
	d := parseDraft(text)
	if len(d.Texts) == 0 {
		return
	}
	// Typed over another address: not this page's. The address bar's own
	// text, not the configuration it resolves to: a link that falls back
	// to the configuration a draft was typed over is another address.
	if d.Query != l.address {
		_ = st.Set(draftStorageKey, "")
		return
	}
	l.drafted = true
	for _, f := range fleet.Fields { // in the fields' order, as a person types them
		if t, ok := d.Texts[f.Key]; ok {
			l.Set(f.Key, t)
		}
	}
	l.restored = true
}

// customStorageKey holds, in the tab's session storage, the user's own
// configuration a step replaced (Lab.custom), as a draft: its query, and
// the texts of its fields not allowed.
const customStorageKey = "retrylab.custom"

// keepCustom stores the configuration a step replaced, for a reload of
// the tab: ↶ Your configuration was gone after a reload, or after Back
// and Forward, which a step's change does not add to (a review).
func (l *Lab) keepCustom() {
	if l.drafts == nil {
		return
	}
	kept := ""
	if c := l.custom; c != nil {
		d := draft{Query: c.s.Encode(), Texts: map[string]string{}}
		maps.Copy(d.Texts, c.invalid)
		kept = d.String()
	}
	_ = l.drafts.Set(customStorageKey, kept)
}

// adoptCustom takes back the configuration a step replaced (keepCustom)
// from st, the tab's session storage.
func (l *Lab) adoptCustom(st storage) {
	var text string
	if st.Get(customStorageKey, &text) != nil || text == "" {
		return
	}
	d := parseDraft(text)
	q, _ := fleet.ParseQuery(d.Query)
	s, _ := fleet.FromQuery(q)
	l.custom = &ownConfig{s: s}
	if len(d.Texts) > 0 {
		l.custom.invalid = d.Texts
	}
}

// query is the page address's query: the configuration and, when there is
// a baseline, its configuration as vs=.
func (l *Lab) query() string { return l.queryOf(l.s) }

// queryOf is query with s as the configuration.
func (l *Lab) queryOf(s fleet.Scenario) string {
	q := s.Encode()
	switch {
	case l.base != nil:
		q += baselineParam(l.base.scen)
	case l.wantBase != nil:
		q += baselineParam(*l.wantBase)
	}
	return q
}

// baselineParam is the address's part for baseline b: none for a custom
// target's run, which a link cannot bring back (it is simulated from the
// link, and only the mock can be). The page wrote it, then took its own
// link for a bad one: a reload printed the whole baseline's query in a
// notice (found by a review).
func baselineParam(b fleet.Scenario) string {
	if b.Target != "" {
		return ""
	}
	return "&" + baselineKey + "=" + url.QueryEscape(b.Encode())
}

// ShareURL is the link that reproduces the configuration.
func (l *Lab) ShareURL() string {
	return l.pageAddress() + "?" + l.query()
}

// pageAddress is the page's address without its query.
func (l *Lab) pageAddress() string {
	if l.page == nil {
		return "/"
	}
	return l.page.Scheme + "://" + l.page.Host + l.page.Path
}
