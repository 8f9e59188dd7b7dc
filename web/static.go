package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// assets are the embedded static files, indexed once: their bytes, type
// and content hash, and a gzip copy made on first demand.
type assets struct {
	files map[string]*asset // by path under static/
}

type asset struct {
	body  []byte
	ctype string
	hash  string // first 16 hex digits of the SHA-256 of body

	gzOnce sync.Once
	gz     []byte // nil when compression does not pay
}

func newAssets(fsys fs.FS) *assets {
	a := &assets{files: map[string]*asset{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = http.DetectContentType(b)
		}
		a.files[name] = &asset{body: b, ctype: ct, hash: hex.EncodeToString(sum[:8])}
		return nil
	})
	if err != nil {
		panic("web: reading embedded static files: " + err.Error())
	}
	return a
}

// url is the address of a static file with its hash, for templates. It
// panics on a file that does not exist, so a typo fails every test.
func (a *assets) url(name string) string {
	f, ok := a.files[name]
	if !ok {
		panic("web: no static file " + name)
	}
	return "/static/" + name + "?v=" + f.hash
}

// Cache-Control values: a hashed URL never changes its content; any other
// request revalidates with the ETag.
const (
	cacheImmutable   = "public, max-age=31536000, immutable"
	cacheRevalidate  = "no-cache"
	minGzipSize      = 1024
	gzipContentTypes = "text/ application/javascript application/json image/svg+xml"
)

func (a *assets) serve(w http.ResponseWriter, r *http.Request, name string) {
	f, ok := a.files[name]
	if !ok {
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Cache-Control", cacheRevalidate)
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte("404 no such file\n"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Vary", "Accept-Encoding")
	if r.URL.Query().Get("v") == f.hash {
		h.Set("Cache-Control", cacheImmutable)
	} else {
		h.Set("Cache-Control", cacheRevalidate)
	}
	body, etag := f.body, `"`+f.hash+`"`
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		if gz := f.gzipped(); gz != nil {
			body, etag = gz, `"`+f.hash+`-gz"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// gzipped compresses a text file once, the first time a client asks.
func (f *asset) gzipped() []byte {
	f.gzOnce.Do(func() {
		if len(f.body) < minGzipSize || !compressible(f.ctype) {
			return
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(f.body)
		if zw.Close() == nil && buf.Len() < len(f.body) {
			f.gz = buf.Bytes()
		}
	})
	return f.gz
}

func compressible(ctype string) bool {
	for p := range strings.FieldsSeq(gzipContentTypes) {
		if strings.HasPrefix(ctype, p) {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip (a
// q=0 refuses it).
func acceptsGzip(h string) bool {
	for part := range strings.SplitSeq(h, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
