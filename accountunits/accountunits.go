// Package accountunits serves the units of accounts ("units of your
// own"): it checks a change of an account's units with the catalog's
// loader and rules before the store keeps it, compiles an account's
// stored units into a graph over the catalog's (engine.Overlay), keeps
// the compiled graphs of the accounts in use within a memory bound, and
// compiles the units that one request defines.
//
// It knows no HTTP and no SQL: the server and the command line call it,
// with an account.UnitStore and, in a server, an account.UnitWatcher that
// says which accounts' units changed on any replica.
//
// A change is refused when it breaks a unit: when, with the change, the
// changed unit fails the catalog's rules (a wrong example, a cycle, no
// source, a name the catalog has), or a unit that compiled before fails
// now (it refers to a deleted unit, say). What was broken already (a
// catalog release added a name an account's unit has) does not refuse
// another change: stored units are served leniently, and such a unit's
// plain name is ambiguous.
package accountunits

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/unitd/unitd/account"
	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine"
	"github.com/unitd/unitd/engine/spec"
)

// Limits of an account's units beyond engine.OverlayLimits.
const (
	// DefaultMaxBytes bounds the documents of one account's units
	// together, in bytes.
	DefaultMaxBytes = 1 << 20
	// DefaultCacheBytes bounds the compiled graphs kept, estimated by
	// engine.Graph.OverlayBytes.
	DefaultCacheBytes = 64 << 20
	// MaxDefine bounds the units one request defines.
	MaxDefine = 20
	// MaxDefineBytes bounds the definitions of one request together.
	MaxDefineBytes = 16 << 10
)

// Options configure a Service; zero fields take the defaults.
type Options struct {
	Limits     engine.OverlayLimits
	MaxBytes   int   // DefaultMaxBytes
	CacheBytes int64 // DefaultCacheBytes
	Logger     *slog.Logger
}

// Service serves the units of accounts. It is safe for concurrent use.
type Service struct {
	store  account.UnitStore
	watch  *account.UnitWatcher
	opt    Options
	logger *slog.Logger

	mu      sync.RWMutex // guards entries and used
	entries map[string]*entry
	used    int64
	// tick counts uses, for eviction: the least recently used first.
	tick atomic.Int64
}

// entry is an account's compiled graph in the cache.
type entry struct {
	state atomic.Pointer[compiled]
	last  atomic.Int64 // tick of the last use, for eviction
	// compiling is held while the account's units compile, so that the
	// requests that find them changed compile them once.
	compiling sync.Mutex
}

// compiled is an account's units compiled over a catalog's graph, at a
// version of the store's.
type compiled struct {
	base    *engine.Graph
	version int64
	g       *engine.Graph
	bytes   int64
	// parsed are the documents as parsed, and docs the documents, for
	// the next compilation.
	parsed map[string]parsedDoc
	docs   []account.UnitDoc
}

// New returns a Service over store. watch, when set, says which
// accounts' units changed (Graph reads it); without it (the command
// line) Graph is not used.
func New(store account.UnitStore, watch *account.UnitWatcher, opt Options) *Service {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	if opt.CacheBytes <= 0 {
		opt.CacheBytes = DefaultCacheBytes
	}
	logger := opt.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Service{store: store, watch: watch, opt: opt, logger: logger, entries: map[string]*entry{}}
}

// Problems is the error of a change or a definition that the catalog's
// loader or rules refuse: every problem, each at its position.
type Problems struct {
	Errs []error
}

func (p *Problems) Error() string {
	msgs := make([]string, 0, len(p.Errs))
	for _, e := range p.Errs {
		msgs = append(msgs, e.Error())
	}
	return strings.Join(msgs, "; ")
}

// Problems returns the problems (the server reads them through this
// method, without naming the type).
func (p *Problems) Problems() []error { return p.Errs }

// Unwrap makes a Problems an account.ErrInvalid.
func (p *Problems) Unwrap() error { return account.ErrInvalid }

func problems(errs ...error) error { return &Problems{Errs: errs} }

func problemf(file, format string, args ...any) error {
	return &engine.SpecError{Origin: engine.Origin{File: file, Line: 1, Column: 1}, Message: fmt.Sprintf(format, args...)}
}

// Graph returns the graph a request of the account converts with: base
// with the account's units, or base itself when it has none. A graph
// compiled before is used while the account's units and base are those
// it was compiled of; a change compiles them again, reusing what did not
// change.
func (s *Service) Graph(ctx context.Context, accountID string, base *engine.Graph) (*engine.Graph, error) {
	if s == nil || s.watch == nil || accountID == "" {
		return base, nil
	}
	version, has := s.watch.Version(accountID)
	s.mu.RLock()
	e := s.entries[accountID]
	s.mu.RUnlock()
	if !has {
		if e != nil {
			s.drop(accountID)
		}
		return base, nil
	}
	// The warm path: a read lock and atomic loads. The use is recorded
	// as of the last compilation (tick moves only there), which is
	// recent enough for eviction and keeps every request from writing
	// one shared counter.
	if e != nil {
		if t := s.tick.Load(); e.last.Load() != t {
			e.last.Store(t)
		}
		if c := e.state.Load(); c != nil && c.base == base && c.version == version {
			return c.g, nil
		}
	} else {
		e = s.entry(accountID)
	}
	e.compiling.Lock()
	defer e.compiling.Unlock()
	prev := e.state.Load()
	if prev != nil && prev.base == base && prev.version == version {
		return prev.g, nil
	}
	docs, err := s.read(ctx, accountID, prev)
	if err != nil {
		if prev != nil && prev.base == base {
			// The store does not answer: the units as they were.
			s.logger.Warn("serving an account's units as they were", "account", accountID, "error", err)
			return prev.g, nil
		}
		return nil, fmt.Errorf("account units: %w", err)
	}
	opt := engine.OverlayOptions{Lenient: true, Limits: s.opt.Limits, Version: strconv.FormatInt(version, 10), Context: ctx}
	if prev != nil && prev.base == base {
		opt.Previous = prev.g
	}
	var before map[string]parsedDoc
	if prev != nil {
		before = prev.parsed
	}
	g, errs, parsed := compileParsed(base, docs, opt, before)
	if g == nil {
		// Only limits lowered since the units were stored get here.
		s.logger.Warn("an account's units do not compile", "account", accountID, "problems", len(errs), "first", firstError(errs))
		return base, nil
	}
	if len(errs) > 0 {
		s.logger.Info("an account's units compiled with problems; those units are left out", "account", accountID, "problems", len(errs), "first", firstError(errs))
	}
	s.keep(accountID, e, &compiled{base: base, version: version, g: g, bytes: g.OverlayBytes(), parsed: parsed, docs: docs})
	return g, nil
}

// read returns an account's units as they are now: those prev was
// compiled of with the changes since applied, in order (a change sets a
// unit's whole state, so applying one again is harmless), or, without
// prev or when most units changed, all of them from the store.
func (s *Service) read(ctx context.Context, accountID string, prev *compiled) ([]account.UnitDoc, error) {
	if prev == nil || prev.docs == nil {
		return s.store.Units(ctx, accountID)
	}
	changes, err := s.store.UnitChangesSince(ctx, accountID, prev.version)
	if err != nil {
		return nil, err
	}
	if len(changes) > len(prev.docs)/2+16 {
		return s.store.Units(ctx, accountID)
	}
	at := make(map[string]int, len(prev.docs))
	docs := slices.Clone(prev.docs)
	for i, d := range docs {
		at[d.Symbol] = i
	}
	for _, c := range changes {
		i, ok := at[c.Symbol]
		switch {
		case c.Action == account.UnitDelete && ok:
			docs[i].Symbol = "" // dropped below
			delete(at, c.Symbol)
		case c.Action == account.UnitPut && ok:
			docs[i] = account.UnitDoc{AccountID: accountID, Symbol: c.Symbol, Document: c.Document, Format: c.Format, Revision: c.Revision}
		case c.Action == account.UnitPut:
			at[c.Symbol] = len(docs)
			docs = append(docs, account.UnitDoc{AccountID: accountID, Symbol: c.Symbol, Document: c.Document, Format: c.Format, Revision: c.Revision})
		}
	}
	docs = slices.DeleteFunc(docs, func(d account.UnitDoc) bool { return d.Symbol == "" })
	slices.SortFunc(docs, func(a, b account.UnitDoc) int { return strings.Compare(a.Symbol, b.Symbol) })
	return docs, nil
}

func firstError(errs []error) string {
	if len(errs) == 0 {
		return ""
	}
	return errs[0].Error()
}

// entry returns the cache entry of an account, made if missing.
func (s *Service) entry(accountID string) *entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[accountID]
	if !ok {
		e = &entry{}
		s.entries[accountID] = e
	}
	e.last.Store(s.tick.Add(1))
	return e
}

// keep keeps c as the account's compiled graph and evicts the least
// recently used graphs while the cache holds more than its bound.
func (s *Service) keep(accountID string, e *entry, c *compiled) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if x := s.entries[accountID]; x != e {
		// Evicted while it compiled: its graph counts again. (Another
		// entry made meanwhile is dropped for this one.)
		if x != nil {
			if old := x.state.Swap(nil); old != nil {
				s.used -= old.bytes
			}
		}
		s.entries[accountID] = e
	}
	if old := e.state.Swap(c); old != nil {
		s.used -= old.bytes
	}
	s.used += c.bytes
	for s.used > s.opt.CacheBytes && len(s.entries) > 1 {
		var victim string
		oldest := int64(-1)
		for id, x := range s.entries {
			if x == e || x.state.Load() == nil {
				continue
			}
			if t := x.last.Load(); oldest < 0 || t < oldest {
				victim, oldest = id, t
			}
		}
		if oldest < 0 {
			break
		}
		s.evict(victim)
	}
}

// evict forgets an account's compiled graph; s.mu is held.
func (s *Service) evict(accountID string) {
	if x, ok := s.entries[accountID]; ok {
		if c := x.state.Swap(nil); c != nil {
			s.used -= c.bytes
		}
		delete(s.entries, accountID)
	}
}

// drop forgets the graph of an account that has no units now.
func (s *Service) drop(accountID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evict(accountID)
}

// CacheBytes is the estimated memory of the compiled graphs kept.
func (s *Service) CacheBytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// compile parses the documents of an account's units and compiles them
// over base. Without opt.Lenient the graph is nil when there is any
// problem; with it, a document that does not parse is left out with its
// problems.
func compile(base *engine.Graph, docs []account.UnitDoc, opt engine.OverlayOptions) (*engine.Graph, []error) {
	g, errs, _ := compileParsed(base, docs, opt, nil)
	return g, errs
}

// parsedDoc is a document as parsed, kept so that compiling an account's
// units again parses only the documents that changed.
type parsedDoc struct {
	document string
	unit     catalog.AccountUnit
}

// compileParsed is compile reusing the documents parsed before (by
// symbol, when the document is the same); it returns those it parsed now
// and reused, for the next time.
func compileParsed(base *engine.Graph, docs []account.UnitDoc, opt engine.OverlayOptions, before map[string]parsedDoc) (*engine.Graph, []error, map[string]parsedDoc) {
	units := make([]catalog.AccountUnit, 0, len(docs))
	parsed := make(map[string]parsedDoc, len(docs))
	var errs []error
	for _, d := range docs {
		if p, ok := before[d.Symbol]; ok && p.document == d.Document {
			units = append(units, p.unit)
			parsed[d.Symbol] = p
			continue
		}
		au, perrs := catalog.ParseAccountUnit(d.Symbol, []byte(d.Document))
		if len(perrs) == 0 && au.Unit.Symbol != d.Symbol {
			perrs = []error{problemf(d.Symbol, "the document's symbol %q is not the unit's %q", au.Unit.Symbol, d.Symbol)}
		}
		if len(perrs) > 0 {
			errs = append(errs, perrs...)
			continue
		}
		units = append(units, au)
		parsed[d.Symbol] = parsedDoc{d.Document, au}
	}
	spec, serrs := catalog.AccountSpec(base, units)
	errs = append(errs, serrs...)
	if len(errs) > 0 && !opt.Lenient {
		return nil, errs, nil
	}
	g, oerrs := engine.Overlay(base, spec, opt)
	return g, append(errs, oerrs...), parsed
}

// check is the account.UnitCheck of a change of the unit symbol over
// base: the units after the change must fit the account's limits, and
// the change must break no unit (see the package's doc).
func (s *Service) check(ctx context.Context, base *engine.Graph, symbol string) account.UnitCheck {
	return func(before, after []account.UnitDoc) error {
		total := 0
		for _, d := range after {
			total += len(d.Document)
		}
		if total > s.opt.MaxBytes {
			return problems(problemf(symbol, "an account's units have at most %d bytes of documents together; with this one they would have %d", s.opt.MaxBytes, total))
		}
		// Refused before anything is parsed: an account at its limit
		// costs a caller who keeps adding nothing but this.
		limit := s.opt.Limits.Units
		if limit <= 0 {
			limit = spec.DefaultMaxAccountUnits
		}
		if len(after) > len(before) && len(after) > limit {
			return problems(problemf(symbol, "an account may have at most %d units, prefixed ones included; this one would have %d", limit, len(after)))
		}
		opt := engine.OverlayOptions{Limits: s.opt.Limits, NoCache: true, Context: ctx}
		_, errs := compile(base, after, opt)
		if len(errs) == 0 {
			return nil
		}
		// What was broken before the change does not refuse it.
		_, old := compile(base, before, opt)
		brokenBefore := map[string]bool{}
		for _, err := range old {
			brokenBefore[fileOf(err)] = true
		}
		var refuse []error
		for _, err := range errs {
			if f := fileOf(err); f == "" || f == symbol || !brokenBefore[f] {
				refuse = append(refuse, err)
			}
		}
		if len(refuse) == 0 {
			return nil
		}
		return problems(refuse...)
	}
}

// fileOf is the file of a problem's origin: the symbol of the unit whose
// document it is in, or "" for a problem of the whole set (a limit).
func fileOf(err error) string {
	var se *engine.SpecError
	if errors.As(err, &se) {
		return se.Origin.File
	}
	return ""
}

// Put checks and stores a unit of an account: its document (YAML, or
// JSON when format is "json") in the catalog's schema, whose symbol must
// be symbol. It reports whether the unit is new. A document or a change
// that the rules refuse is a *Problems.
func (s *Service) Put(ctx context.Context, base *engine.Graph, accountID, symbol string, document []byte, format string, actor account.Actor) (account.UnitDoc, bool, error) {
	if format != "yaml" && format != "json" {
		return account.UnitDoc{}, false, fmt.Errorf("%w: format %q is not yaml or json", account.ErrInvalid, format)
	}
	if symbol == "" || len(symbol) > spec.MaxAccountSymbol {
		return account.UnitDoc{}, false, problems(problemf(truncate(symbol, 40), "a unit's symbol has 1 to %d bytes", spec.MaxAccountSymbol))
	}
	au, errs := catalog.ParseAccountUnit(symbol, document)
	if len(errs) > 0 {
		return account.UnitDoc{}, false, problems(errs...)
	}
	if au.Unit.Symbol != symbol {
		return account.UnitDoc{}, false, problems(problemf(symbol, "the document defines %q, not %q: the symbol in the path is the unit's", truncate(au.Unit.Symbol, 40), symbol))
	}
	doc := account.UnitDoc{AccountID: accountID, Symbol: symbol, Document: string(document), Format: format}
	u, created, err := s.store.PutUnit(ctx, doc, actor, s.check(ctx, base, symbol))
	if err == nil {
		s.refresh(ctx)
	}
	return u, created, err
}

// Delete deletes a unit of an account, unless another unit needs it.
func (s *Service) Delete(ctx context.Context, base *engine.Graph, accountID, symbol string, actor account.Actor) error {
	err := s.store.DeleteUnit(ctx, accountID, symbol, actor, s.check(ctx, base, symbol))
	if err == nil {
		s.refresh(ctx)
	}
	return err
}

// refresh has the watcher read a change made here at once, so that the
// next request on this server sees it.
func (s *Service) refresh(ctx context.Context) {
	if s.watch != nil {
		if err := s.watch.Refresh(ctx); err != nil {
			s.logger.Warn("reading the accounts' units after a change", "error", err)
		}
	}
}

// Units lists an account's units, by symbol.
func (s *Service) Units(ctx context.Context, accountID string) ([]account.UnitDoc, error) {
	return s.store.Units(ctx, accountID)
}

// Unit returns one of an account's units, or account.ErrNotFound.
func (s *Service) Unit(ctx context.Context, accountID, symbol string) (account.UnitDoc, error) {
	return s.store.Unit(ctx, accountID, symbol)
}

// History lists the changes of an account's unit ("" for all), newest
// first.
func (s *Service) History(ctx context.Context, accountID, symbol string, limit int) ([]account.UnitChange, error) {
	return s.store.UnitHistory(ctx, accountID, symbol, limit)
}

// Define compiles the units one request defines over g (the catalog's
// graph or an account's): each definition a document in the catalog's
// schema (a JSON object, or YAML) or one line, "smoot = 1.7018 m". They
// are never stored. Problems are a *Problems.
func Define(g *engine.Graph, defs []string) (*engine.Graph, error) {
	if len(defs) == 0 {
		return g, nil
	}
	if len(defs) > MaxDefine {
		return nil, problems(problemf("define", "a request defines at most %d units; this one defines %d", MaxDefine, len(defs)))
	}
	total := 0
	for _, d := range defs {
		total += len(d)
	}
	if total > MaxDefineBytes {
		return nil, problems(problemf("define", "a request's definitions have at most %d bytes together; these have %d", MaxDefineBytes, total))
	}
	units := make([]catalog.AccountUnit, 0, len(defs))
	var errs []error
	for i, d := range defs {
		name := "define[" + strconv.Itoa(i) + "]"
		t := strings.TrimSpace(d)
		if t == "" || t[0] != '{' && !strings.Contains(t, "\n") {
			au, err := catalog.ParseDefinitionLine(name, t)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			units = append(units, au)
			continue
		}
		au, perrs := catalog.ParseAccountUnit(name, []byte(d))
		if len(perrs) > 0 {
			errs = append(errs, perrs...)
			continue
		}
		units = append(units, au)
	}
	if len(errs) > 0 {
		return nil, problems(errs...)
	}
	spec, errs := catalog.AccountSpec(g, units)
	if len(errs) > 0 {
		return nil, problems(errs...)
	}
	// A request's units count against the limits as an account's do.
	og, errs := engine.Overlay(g, spec, engine.OverlayOptions{NoCache: true, Limits: engine.OverlayLimits{Units: 4 * MaxDefine}})
	if len(errs) > 0 {
		return nil, problems(errs...)
	}
	return og, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Try checks a unit's document as Put would, against the account's units
// as they are, without storing anything: it returns the graph of the
// account's units with it (for a preview conversion) and its symbol. A
// document the rules refuse is a *Problems.
func (s *Service) Try(ctx context.Context, base *engine.Graph, accountID string, document []byte) (*engine.Graph, string, error) {
	au, errs := catalog.ParseAccountUnit("document", document)
	if len(errs) > 0 {
		return nil, "", problems(errs...)
	}
	sym := au.Unit.Symbol
	if sym == "" || len(sym) > spec.MaxAccountSymbol {
		return nil, sym, problems(problemf("document", "a unit's symbol has 1 to %d bytes", spec.MaxAccountSymbol))
	}
	before, err := s.store.Units(ctx, accountID)
	if err != nil {
		return nil, sym, err
	}
	after := slices.Clone(before)
	doc := account.UnitDoc{AccountID: accountID, Symbol: sym, Document: string(document)}
	if i := slices.IndexFunc(after, func(d account.UnitDoc) bool { return d.Symbol == sym }); i >= 0 {
		after[i] = doc
	} else {
		after = append(after, doc)
	}
	if err := s.check(ctx, base, sym)(before, after); err != nil {
		return nil, sym, err
	}
	g, _ := compile(base, after, engine.OverlayOptions{Lenient: true, NoCache: true, Limits: s.opt.Limits, Context: ctx})
	if g == nil {
		return nil, sym, problems(problemf(sym, "the account's units do not compile"))
	}
	return g, sym, nil
}
