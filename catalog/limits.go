package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/unitd/unitd/engine"
)

// What a catalog directory may hold. A catalog is a few hundred kilobytes
// of hand-written YAML; these bounds are far above that and far below what
// would exhaust a server's memory or CPU, so one hostile or broken file
// gets a short error instead of taking the server down.
const (
	MaxFiles       = 1000            // *.yaml files in the directory
	MaxFileSize    = 256 << 10       // bytes in one file
	MaxCatalogSize = 16 << 20        // bytes in all files together
	MaxAliases     = 100             // YAML aliases followed in one file
	MaxUnits       = engine.MaxUnits // units declared (Build bounds them with their prefixes too)
	MaxErrors      = 100             // problems reported by one load
	maxLinkHops    = 8               // symbolic links followed for one name
)

// A FileError is a catalog file that was not read: what kind of file or
// problem it is, never what it contains.
type FileError struct {
	File string // name in the catalog directory
	Kind string // such as "not a regular file"
	Err  error  // the cause, if any (may name paths outside the catalog)
}

func (e *FileError) Error() string {
	if e.Err != nil {
		return e.File + ": " + e.Kind + ": " + e.Err.Error()
	}
	return e.File + ": " + e.Kind
}

func (e *FileError) Unwrap() error { return e.Err }

// readSources reads the *.yaml files at the top of fsys, sorted by name.
// It reads only regular files inside the directory (a symbolic link must
// stay inside it), each at most MaxFileSize bytes and MaxCatalogSize in
// all; it never opens a device or a FIFO.
func readSources(fsys fs.FS) ([]source, []error) {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, []error{fmt.Errorf("listing catalog files: %w", err)}
	}
	if len(names) == 0 {
		return nil, []error{fmt.Errorf("catalog has no *.yaml files")}
	}
	if len(names) > MaxFiles {
		return nil, []error{fmt.Errorf("catalog has %d *.yaml files; at most %d are read", len(names), MaxFiles)}
	}
	sort.Strings(names)
	var files []source
	var errs []error
	total := 0
	for _, name := range names {
		fi, ferr := regularFile(fsys, name)
		if ferr != nil {
			errs = append(errs, ferr)
			continue
		}
		if fi.Size() > MaxFileSize {
			errs = append(errs, &FileError{File: name, Kind: "file larger than " + sizeText(MaxFileSize)})
			continue
		}
		if total += int(fi.Size()); total > MaxCatalogSize {
			errs = append(errs, &FileError{File: name, Kind: "catalog larger than " + sizeText(MaxCatalogSize)})
			break
		}
		src, err := readAtMost(fsys, name, fi.Size(), MaxFileSize)
		if err != nil {
			errs = append(errs, &FileError{File: name, Kind: "cannot read", Err: err})
			continue
		}
		files = append(files, source{name, src})
	}
	return files, errs
}

// regularFile stats name without opening it, following symbolic links only
// while they stay inside fsys, and refuses anything but a regular file.
func regularFile(fsys fs.FS, name string) (fs.FileInfo, *FileError) {
	cur := name
	for hop := 0; ; hop++ {
		fi, err := fs.Lstat(fsys, cur)
		if err != nil {
			return nil, &FileError{File: name, Kind: "cannot stat", Err: err}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if !fi.Mode().IsRegular() {
				return nil, &FileError{File: name, Kind: "not a regular file"}
			}
			return fi, nil
		}
		if hop == maxLinkHops {
			return nil, &FileError{File: name, Kind: "too many symbolic links"}
		}
		target, err := fs.ReadLink(fsys, cur)
		if err != nil {
			return nil, &FileError{File: name, Kind: "cannot read symbolic link", Err: err}
		}
		next := path.Join(path.Dir(cur), target)
		if path.IsAbs(target) || !fs.ValidPath(next) {
			return nil, &FileError{File: name, Kind: "symbolic link out of the catalog directory"}
		}
		cur = next
	}
}

// readAtMost reads name, failing rather than reading more than limit bytes
// (a file may grow after it was stat'ed). size, the size it was stat'ed
// at, is room enough for the whole file read at once.
func readAtMost(fsys fs.FS, name string, size, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	buf.Grow(int(min(max(size, 0), limit)) + bytes.MinRead) // ReadFrom wants MinRead free
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, errors.New("file grew past the size limit while being read")
	}
	return buf.Bytes(), nil
}

func sizeText(n int) string {
	if n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	if n%(1<<10) == 0 {
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}

// capErrors keeps the first MaxErrors problems and says how many more
// there were.
func capErrors(errs []error) []error {
	if len(errs) <= MaxErrors {
		return errs
	}
	more := len(errs) - MaxErrors
	return append(errs[:MaxErrors:MaxErrors], fmt.Errorf("and %d more problems", more))
}

// PublicProblem summarises the problems of a failed load for anyone who
// may ask (a public health endpoint): where the first one is, relative to
// the catalog directory, and its message without what the file holds:
// every quoted value (a symbol, a name, a number as written, a key) is
// elided as "…", a problem with the file itself says what kind it is, and
// a YAML syntax error, worded by the YAML parser, says only that. The full
// messages belong in the server's log and in unitd validate.
func PublicProblem(errs []error) string {
	if len(errs) == 0 {
		return ""
	}
	first := errs[0]
	var s string
	var fe *FileError
	var se *engine.SpecError
	switch {
	case errors.Is(first, ErrTimeout):
		s = "catalog: load did not finish in time"
	case errors.As(first, &fe):
		s = fe.File + ": " + fe.Kind
	case errors.As(first, &se):
		s = se.Origin.String() + ": "
		if se.Subject != "" {
			s += elideQuoted(se.Subject) + ": "
		}
		if strings.HasPrefix(se.Message, yamlSyntax) {
			s += "YAML syntax error"
		} else {
			s += elideQuoted(se.Message)
		}
	default:
		s = "catalog: cannot be loaded"
	}
	if n := len(errs) - 1; n > 0 {
		s += " (and " + strconv.Itoa(n) + " more problems)"
	}
	return s + "; see the server log or unitd validate"
}

// quoted matches a string as %q writes it; compiled on first use.
var quoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"(?:[^"\\]|\\.)*"`) })

// elideQuoted replaces every quoted string of s with "…".
func elideQuoted(s string) string { return quoted().ReplaceAllLiteralString(s, `"…"`) }

// ErrTimeout is a load that did not finish in time.
var ErrTimeout = errors.New("catalog load did not finish in time")

// loadSlot runs one load at a time with a deadline. Past the deadline
// the load's context is cancelled, which stops compiling (engine.
// BuildContext), and the caller gets ErrTimeout at once; the load keeps
// the slot until it has returned. A load asked for meanwhile fails at once
// instead of queueing behind it, and retry (when set) is called once the
// running load ends, so that the newest catalog is loaded after all.
type loadSlot struct {
	mu     sync.Mutex
	since  time.Time // start of the load holding the slot; zero if free
	missed bool      // a load was refused while this one ran
	retry  func()
}

func (s *loadSlot) run(timeout time.Duration, load func(ctx context.Context) (*engine.Graph, []error)) (*engine.Graph, []error) {
	s.mu.Lock()
	if !s.since.IsZero() {
		since := s.since
		s.missed = true
		s.mu.Unlock()
		return nil, []error{fmt.Errorf("%w: the load started at %s is still running; the newest catalog is loaded when it ends", ErrTimeout, since.UTC().Format(time.RFC3339))}
	}
	s.since = time.Now()
	s.mu.Unlock()
	type result struct {
		g    *engine.Graph
		errs []error
	}
	// The deadline cancels the load's context by itself; cancel only
	// releases it once run returns.
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan result, 1)
	go func() {
		g, errs := load(ctx)
		s.mu.Lock()
		s.since = time.Time{}
		missed := s.missed
		s.missed = false
		retry := s.retry
		s.mu.Unlock()
		done <- result{g, errs}
		if missed && retry != nil {
			retry()
		}
	}()
	timedOut := []error{fmt.Errorf("%w: not done after %v", ErrTimeout, timeout)}
	select {
	case r := <-done:
		if r.g == nil && ctx.Err() != nil {
			return nil, timedOut // stopped by the deadline: say so, not how it stopped
		}
		return r.g, r.errs
	case <-ctx.Done():
		return nil, timedOut
	}
}

// LoadWithin is Load with a deadline: past timeout it returns ErrTimeout,
// and the load stops.
func LoadWithin(fsys fs.FS, timeout time.Duration) (*engine.Graph, []error) {
	var slot loadSlot
	return slot.run(timeout, func(ctx context.Context) (*engine.Graph, []error) {
		g, errs, _ := load(ctx, fsys, nil)
		return g, errs
	})
}
