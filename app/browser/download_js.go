//go:build js && wasm

package browser

import (
	"context"
	"time"

	"github.com/hack-pad/safejs"
)

// Blob is a JavaScript Blob (file contents held by the browser).
type Blob struct{ v safejs.Value }

// newBlob copies data into a Blob of the given MIME type.
func newBlob(data []byte, mime string) (Blob, error) {
	g := safejs.Global()
	u8ctor, err := g.Get("Uint8Array")
	if err != nil {
		return Blob{}, err
	}
	arr, err := u8ctor.New(len(data))
	if err != nil {
		return Blob{}, err
	}
	if _, err := safejs.CopyBytesToJS(arr, data); err != nil {
		return Blob{}, err
	}
	blobCtor, err := g.Get("Blob")
	if err != nil {
		return Blob{}, err
	}
	v, err := blobCtor.New([]any{arr}, map[string]any{"type": mime})
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

// Download offers data as a file named name of the given MIME type.
func Download(name, mime string, data []byte) error {
	b, err := newBlob(data, mime)
	if err != nil {
		return err
	}
	return b.Save(name)
}
