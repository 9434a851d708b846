//go:build js && wasm

package browser

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/hack-pad/safejs"
)

const inBrowser = true

// funcOf hands fn to JavaScript and counts it until release.
func funcOf(fn func(this safejs.Value, args []safejs.Value) any) (safejs.Func, error) {
	f, err := safejs.FuncOf(fn)
	if err != nil {
		return f, err
	}
	liveFuncs.Add(1)
	return f, nil
}

// release releases a function made by funcOf.
func release(f safejs.Func) {
	f.Release()
	liveFuncs.Add(-1)
}

// permanent hands fn to JavaScript for the lifetime of the page.
func permanent(fn func(this safejs.Value, args []safejs.Value) any) (safejs.Func, error) {
	f, err := funcOf(fn)
	if err == nil {
		permanentFuncs.Add(1)
	}
	return f, err
}

// compile builds a JavaScript function from source once: new Function(args..., body).
func compile(body string, args ...string) (safejs.Value, error) {
	ctor, err := safejs.Global().Get("Function")
	if err != nil {
		return safejs.Value{}, err
	}
	params := make([]any, 0, len(args)+1)
	for _, a := range args {
		params = append(params, a)
	}
	params = append(params, body)
	return ctor.New(params...)
}

// settled is what the bridge delivers: a value or a rejection.
type settled struct {
	v   safejs.Value
	err error
}

// bridge routes JavaScript callbacks to waiting goroutines by id.
type bridge struct {
	mu      sync.Mutex
	next    int
	waiting map[int]chan settled
	fn      safejs.Func  // settle(id, ok, value)
	watch   safejs.Value // (promise, id, settle) => promise.then(ok, fail)
	timeout safejs.Value // setTimeout
	clear   safejs.Value // clearTimeout
	post    safejs.Value // (id) => a MessageChannel message that settles id: a new task, unclamped
	paint   safejs.Value // (id) => settles id in a task after the next frame is painted
}

var (
	theBridge   bridge
	bridgeOnce  sync.Once
	errorBridge error
)

// getBridge sets the bridge up on first use.
func getBridge() (*bridge, error) {
	bridgeOnce.Do(func() {
		b := &theBridge
		b.waiting = make(map[int]chan settled)
		g := safejs.Global()
		var errs [5]error
		b.timeout, errs[0] = g.Get("setTimeout")
		b.clear, errs[1] = g.Get("clearTimeout")
		b.watch, errs[2] = compile(
			"p.then(function (v) { settle(id, true, v); }, function (e) { settle(id, false, e); });",
			"p", "id", "settle")
		b.fn, errs[3] = permanent(b.settle)
		if errs[3] == nil {
			var makePost safejs.Value
			if makePost, errs[4] = compile(postJS, "settle"); errs[4] == nil {
				var fns safejs.Value
				if fns, errs[4] = makePost.Invoke(b.fn.Value()); errs[4] == nil {
					b.post, errs[4] = fns.Index(0)
					if errs[4] == nil {
						b.paint, errs[4] = fns.Index(1)
					}
				}
			}
		}
		errorBridge = errors.Join(errs[:]...)
	})
	return &theBridge, errorBridge
}

// postJS makes the bridge's post and paint functions. post: a message on
// a MessageChannel settles the id in a task of its own; unlike
// setTimeout(0), which browsers clamp to 4 ms once timers nest five deep,
// it comes as soon as the event loop has run what was waiting (input,
// painting). paint: the same message, posted from the next animation frame
// callback, so it comes after that frame is painted; a hidden page (or node)
// runs no frames, so 100 ms settle it anyway.
const postJS = `
var ch = new MessageChannel();
ch.port1.onmessage = function (e) { settle(e.data, true); };
function post(id) { ch.port2.postMessage(id); }
function paint(id) {
  var sent = false;
  var once = function () { if (!sent) { sent = true; post(id); } };
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(once);
  setTimeout(once, 100);
}
return [post, paint];`

// register reserves an id whose result arrives on the returned channel.
func (b *bridge) register() (int, chan settled) {
	ch := make(chan settled, 1) // a JS callback must never block
	b.mu.Lock()
	b.next++
	if b.next >= 1<<52 { // ids travel as JS numbers
		b.next = 1
	}
	id := b.next
	b.waiting[id] = ch
	b.mu.Unlock()
	return id, ch
}

// forget drops id: a later settlement is ignored.
func (b *bridge) forget(id int) {
	b.mu.Lock()
	delete(b.waiting, id)
	b.mu.Unlock()
}

// pending is how many waits are registered.
func (b *bridge) pending() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.waiting)
}

func (b *bridge) settle(_ safejs.Value, args []safejs.Value) any {
	enter()
	if len(args) < 2 {
		return nil
	}
	id, err := args[0].Int()
	if err != nil {
		return nil
	}
	ok, _ := args[1].Bool()
	b.mu.Lock()
	ch := b.waiting[id]
	delete(b.waiting, id)
	b.mu.Unlock()
	if ch == nil {
		return nil // cancelled: nobody waits any more
	}
	var s settled
	if len(args) > 2 {
		s.v = args[2]
	}
	if !ok {
		s.err = jsError(s.v)
	}
	select {
	case ch <- s:
	default:
	}
	return nil
}

// PendingWaits is how many timers and promises Go code is waiting for.
func PendingWaits() int {
	b, err := getBridge()
	if err != nil {
		return 0
	}
	return b.pending()
}

// jsError turns a thrown or rejected JS value into a *JSError.
func jsError(v safejs.Value) error {
	e := &JSError{Message: "promise rejected"}
	switch v.Type() {
	case safejs.TypeUndefined, safejs.TypeNull:
	case safejs.TypeString:
		e.Message, _ = v.String()
	case safejs.TypeObject:
		if s, err := v.Get("message"); err == nil && s.Type() == safejs.TypeString {
			e.Message, _ = s.String()
		} else if s, err := v.Call("toString"); err == nil {
			e.Message, _ = s.String()
		}
		if n, err := v.Get("name"); err == nil && n.Type() == safejs.TypeString {
			e.Name, _ = n.String()
		}
	default:
		if str, err := safejs.Global().Get("String"); err == nil {
			if s, err := str.Invoke(v); err == nil {
				e.Message, _ = s.String()
			}
		}
	}
	return e
}

// await waits for a JS promise. When ctx ends first, onCancel (if any) runs
// (it aborts the fetch behind the promise) and await returns ctx.Err() at
// once; the promise's later settlement is dropped by the bridge.
func await(ctx context.Context, promise safejs.Value, onCancel func()) (safejs.Value, error) {
	b, err := getBridge()
	if err != nil {
		return safejs.Value{}, err
	}
	id, ch := b.register()
	if _, err := b.watch.Invoke(promise, id, b.fn.Value()); err != nil {
		b.forget(id)
		return safejs.Value{}, err
	}
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		b.forget(id)
		if onCancel != nil {
			onCancel()
		}
		return safejs.Value{}, ctx.Err()
	}
}

// Await waits for the promise p, which must be a safejs.Value.
func Await(ctx context.Context, p safejs.Value) (safejs.Value, error) {
	return await(ctx, p, nil)
}

// lazyFunc is a JavaScript routine compiled on first use.
type lazyFunc struct {
	once sync.Once
	v    safejs.Value
	err  error
}

func compiled(l *lazyFunc, body string, args ...string) (safejs.Value, error) {
	l.once.Do(func() { l.v, l.err = compile(body, args...) })
	return l.v, l.err
}

// Prepare sets up the long-lived callback and the JavaScript routines now
// rather than at the first timer or fetch, and starts the mock's fetch
// workers once the page has painted, so that a page's count of live
// functions is the same before and after its first run, and the first run
// does not wait for a worker to start. The workers start after the paint,
// not in the page's first mount: making them cost that mount ~25 ms of the
// main thread's CPU, and their start-up the machine's cores, in a cold load
// (tests/README.md: figures).
func Prepare() {
	_, _ = getBridge()
	_, _ = getDrawer()
	go func() {
		Clock{}.AfterPaint(context.Background())
		for _, w := range openPool.workers() {
			w.start() // the mock's: a custom target's starts with its first run
		}
	}()
}

// enter notes that the event loop handed control to Go (Busy).
func enter() { lastEntry.Store(time.Now().UnixNano()) }
