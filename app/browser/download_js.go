//go:build js && wasm

package browser

import (
	"context"
	"time"

	"github.com/hack-pad/safejs"
)

// Blob is a JavaScript Blob (file contents held by the browser).
type Blob struct{ v safejs.Value }

// newBlob copies parts, in order, into a Blob of the given MIME type: each
// into an array of its own, letting the page's event loop run between them
// once Go has held it for PaceAfter (ctx ending stops the waiting, not the
// copy). One array for the whole, an 80 MB export, was one copy of the
// page's thread.
func newBlob(ctx context.Context, parts [][]byte, mime string) (Blob, error) {
	g := safejs.Global()
	u8ctor, err := g.Get("Uint8Array")
	if err != nil {
		return Blob{}, err
	}
	arrs := make([]any, 0, len(parts))
	for _, p := range parts {
		arr, err := u8ctor.New(len(p))
		if err != nil {
			return Blob{}, err
		}
		if _, err := safejs.CopyBytesToJS(arr, p); err != nil {
			return Blob{}, err
		}
		arrs = append(arrs, arr)
		if Busy() > PaceAfter {
			Clock{}.Yield(ctx)
		}
	}
	blobCtor, err := g.Get("Blob")
	if err != nil {
		return Blob{}, err
	}
	v, err := blobCtor.New(arrs, map[string]any{"type": mime})
	if err != nil {
		return Blob{}, err
	}
	return Blob{v: v}, nil
}

// saveJS downloads a Blob under a file name through a temporary object URL
// and a temporary link; the URL is revoked a little later (revoking at once
// can cancel the download in some browsers).
const saveJS = `
var u = URL.createObjectURL(blob);
var a = document.createElement("a");
a.href = u; a.download = name; a.style.display = "none";
document.body.appendChild(a); a.click(); a.remove();
return u;`

// Save offers b to the user as a download named name.
func (b Blob) Save(name string) error {
	fn, err := compiled(&saveFn, saveJS, "blob", "name")
	if err != nil {
		return err
	}
	u, err := fn.Invoke(b.v, name)
	if err != nil {
		return err
	}
	go func() {
		_ = Clock{}.Sleep(context.Background(), 30*time.Second)
		if urlObj, err := safejs.Global().Get("URL"); err == nil {
			_, _ = urlObj.Call("revokeObjectURL", u)
		}
	}()
	return nil
}

var saveFn lazyFunc

// Download offers the file made of parts, in order, named name, of the
// given MIME type.
func Download(ctx context.Context, name, mime string, parts [][]byte) error {
	b, err := newBlob(ctx, parts, mime)
	if err != nil {
		return err
	}
	return b.Save(name)
}
