package formula

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
	"github.com/unitd/unitd/engine/internal/exact"
	"github.com/unitd/unitd/engine/internal/lnexp"
)

// num is the value type of formulas: an immutable decimal, the context its
// operations round in, and whether any rounding has happened on the way to
// it. Literals carry no context and adopt their operand's.
type num struct {
	d   *apd.Decimal
	ctx *apd.Context
	// budget and fast are the conversion's Env, which x and every value
	// computed from it carry (carries is set). Apart, the three flags
	// share a word and num is 32 bytes; with an Env field it took 40,
	// which every num boxed as an any (each operation's result) rounds up
	// to an allocation of 48.
	budget                 *Budget
	inexact, fast, carries bool
}

// env is the conversion's Env that n carries.
func (n num) env() Env { return Env{Budget: n.budget, Fast: n.fast} }

// carrying returns a result of n's context that carries n's Env.
func (n num) carrying(d *apd.Decimal, c *apd.Context, inexact bool) num {
	return num{d: d, ctx: c, budget: n.budget, inexact: inexact, fast: n.fast, carries: n.carries}
}

// carrier returns what carries the conversion's Env to a call of
// operands params[:n]: params[n], when literalPatcher passed x there (a
// call of literals), else an operand computed from x. Operands of a let
// bound to literals alone carry none: the call then runs the plain way
// without a budget, at a cost the formula's text fixes whatever the input.
func carrier(params []any, n int) num {
	for _, p := range params[:n+1] {
		if v := p.(num); v.carries {
			return v
		}
	}
	return num{}
}

// Env is what a conversion lends the formulas it runs: the request's
// budget and whether the accelerators are on (the engine's gate decides;
// this package never reads it).
type Env struct {
	Budget *Budget
	Fast   bool
}

// formulaEnv is the environment a formula runs in: the input value x.
type formulaEnv struct {
	X num `expr:"x"`
}

// ErrDomain marks an input outside a formula's domain.
var ErrDomain = errors.New("outside the domain")

type binaryOp func(c *apd.Context, d, x, y *apd.Decimal) (apd.Condition, error)
type unaryOp func(c *apd.Context, d, x *apd.Decimal) (apd.Condition, error)

// runOp is an operation that needs the conversion's Env.
type runBinary func(c *apd.Context, d, x, y *apd.Decimal, r Env) (apd.Condition, error)
type runUnary func(c *apd.Context, d, x *apd.Decimal, r Env) (apd.Condition, error)

func plainBinary(op binaryOp) runBinary {
	return func(c *apd.Context, d, x, y *apd.Decimal, _ Env) (apd.Condition, error) {
		return op(c, d, x, y)
	}
}

// mulDecimal is x·y at c's precision. Decibel formulas multiply and
// divide by powers of ten (10 * log10(x), x / 10); when one operand is one
// and the other fits the precision, the result is the other with its
// exponent shifted, and apd's rounding machinery is skipped: an
// accelerator, taken when the conversion's are on (r.Fast), that yields
// the value and the inexact flag apd's product yields.
func mulDecimal(c *apd.Context, d, x, y *apd.Decimal, r Env) (apd.Condition, error) {
	if r.Fast {
		if e, ok := lnexp.PowerOfTen(y); ok && shiftTen(c, d, x, e) {
			return 0, nil
		}
		if e, ok := lnexp.PowerOfTen(x); ok && shiftTen(c, d, y, e) {
			return 0, nil
		}
	}
	return c.Mul(d, x, y)
}

// quoDecimal is x/y at c's precision, shifting for a power of ten y as
// mulDecimal does.
func quoDecimal(c *apd.Context, d, x, y *apd.Decimal, r Env) (apd.Condition, error) {
	if r.Fast {
		if e, ok := lnexp.PowerOfTen(y); ok && shiftTen(c, d, x, -e) {
			return 0, nil
		}
	}
	return c.Quo(d, x, y)
}

// shiftTen sets d to x·10^e when that is exact at c's precision and the
// exponent stays far inside apd's range, and reports whether it did.
func shiftTen(c *apd.Context, d, x *apd.Decimal, e int64) bool {
	if x.Form != apd.Finite || x.NumDigits() > int64(c.Precision) {
		return false
	}
	ne := int64(x.Exponent) + e
	if ne > 10_000 || ne < -10_000 {
		return false
	}
	d.Set(x)
	d.Exponent = int32(ne)
	return true
}

func plainUnary(op unaryOp) runUnary {
	return func(c *apd.Context, d, x *apd.Decimal, _ Env) (apd.Condition, error) { return op(c, d, x) }
}

// transcendental is fn correctly rounded, charging its slow path to the
// request's budget.
func transcendental(fn lnexp.Func) runUnary {
	return func(c *apd.Context, d, x *apd.Decimal, r Env) (apd.Condition, error) {
		return evalFunction(c, d, x, fn, r)
	}
}

// evalFunction is fn(x) correctly rounded at c's precision.
func evalFunction(c *apd.Context, d, x *apd.Decimal, fn lnexp.Func, r Env) (apd.Condition, error) {
	var take func() bool
	if r.Budget != nil {
		take = r.Budget.take
	}
	cond, err := lnexp.Eval(c, d, x, fn, take, r.Fast)
	if errors.Is(err, lnexp.ErrBudget) {
		return cond, ErrBudget
	}
	return cond, err
}

func pickCtx(a, b num) *apd.Context {
	if a.ctx != nil {
		return a.ctx
	}
	if b.ctx != nil {
		return b.ctx
	}
	return defaultWork
}

// binary adapts op to a call from a formula: its operands, then x, or a
// number standing in for it when an operand is computed from x (withX).
// Every operation takes the conversion's Env (its budget and
// accelerators) from what carries it (carrier).
func binary(name string, op runBinary) func(params ...any) (any, error) {
	return func(params ...any) (any, error) {
		a, b := params[0].(num), params[1].(num)
		c := pickCtx(a, b)
		r := carrier(params, 2).carrying(new(apd.Decimal), c, a.inexact || b.inexact)
		cond, err := op(c, r.d, a.d, b.d, r.env())
		if errors.Is(err, ErrBudget) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%s(%s, %s): %w", name, a.d, b.d, ErrDomain)
		}
		r.inexact = r.inexact || cond.Inexact()
		if exactZero(name, a, b) {
			r.inexact = false // 0·y and 0/y are 0 whatever y's rounding
		}
		return r, nil
	}
}

// exactZero reports whether a product or quotient is an exact zero: an
// exact zero operand (the dividend, for a quotient) makes it so, however
// inexact the other operand is.
func exactZero(name string, a, b num) bool {
	zero := func(x num) bool { return !x.inexact && x.d.IsZero() }
	switch name {
	case "mul":
		return zero(a) || zero(b)
	case "div":
		return zero(a)
	}
	return false
}

func unary(name string, op runUnary, domain func(x *apd.Decimal) bool) func(params ...any) (any, error) {
	return func(params ...any) (any, error) {
		a, x := params[0].(num), carrier(params, 1)
		c := pickCtx(a, x)
		if domain != nil && !domain(a.d) {
			return nil, fmt.Errorf("%s(%s): %w", name, a.d, ErrDomain)
		}
		r := x.carrying(new(apd.Decimal), c, a.inexact)
		cond, err := op(c, r.d, a.d, r.env())
		if errors.Is(err, ErrBudget) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%s(%s): %w", name, a.d, ErrDomain)
		}
		r.inexact = r.inexact || cond.Inexact()
		return r, nil
	}
}

// pow is x^y; with the base 10 of decibel formulas it is 10^y correctly
// rounded, exact for a whole y.
func pow(c *apd.Context, d, x, y *apd.Decimal, r Env) (apd.Condition, error) {
	if !isTen(x) || c.Precision == 0 {
		return c.Pow(d, x, y)
	}
	return evalFunction(c, d, y, lnexp.Exp10, r)
}

// isTen reports whether x is 10. The literal 10 is read as 10×10^0,
// which it checks first: reducing x costs more than the rest of a
// decibel formula's operations but the power itself.
func isTen(x *apd.Decimal) bool {
	if x.Form != apd.Finite || x.Negative {
		return false
	}
	if x.Exponent == 0 && x.Coeff.IsUint64() && x.Coeff.Uint64() == 10 {
		return true
	}
	var t apd.Decimal
	t.Reduce(x)
	return t.Coeff.Cmp(bigOne) == 0 && t.Exponent == 1
}

var bigOne = apd.NewBigInt(1)

func positive(x *apd.Decimal) bool    { return x.Sign() > 0 }
func nonNegative(x *apd.Decimal) bool { return x.Sign() >= 0 }

// The signatures of the formula functions: the operands, then x or a
// number that stands in for it (literalPatcher).
var (
	binarySig = new(func(num, num, num) num)
	unarySig  = new(func(num, num) num)
)

// formulaOptions are the expr options every formula compiles with: x is a
// decimal, arithmetic operators and the functions below work on decimals.
var formulaOptions = []expr.Option{
	expr.Env(formulaEnv{}),
	expr.DisableAllBuiltins(),
	expr.Patch(literalPatcher{constant: func(d *apd.Decimal) any { return num{d: d} }, operators: map[string]string{
		"+": "_add", "-": "_sub", "*": "_mul", "/": "_quo", "**": "pow", "^": "pow",
	}}),
	expr.Function("_add", binary("add", plainBinary((*apd.Context).Add)), binarySig),
	expr.Function("_sub", binary("sub", plainBinary((*apd.Context).Sub)), binarySig),
	expr.Function("_mul", binary("mul", mulDecimal), binarySig),
	expr.Function("_quo", binary("div", quoDecimal), binarySig),
	expr.Function("pow", binary("pow", pow), binarySig),
	expr.Function("_neg", unary("neg", plainUnary((*apd.Context).Neg), nil), unarySig),
	expr.Function("abs", unary("abs", plainUnary((*apd.Context).Abs), nil), unarySig),
	expr.Function("ln", unary("ln", transcendental(lnexp.Ln), positive), unarySig),
	expr.Function("log10", unary("log10", transcendental(lnexp.Log10), positive), unarySig),
	expr.Function("exp", unary("exp", transcendental(lnexp.Exp), nil), unarySig),
	expr.Function("sqrt", unary("sqrt", plainUnary((*apd.Context).Sqrt), nonNegative), unarySig),
	expr.Function("tan", unary("tan", tanCR, nil), unarySig),
	expr.Function("atan", unary("atan", atanCR, nil), unarySig),
}

// checkNames reports the first name in a formula that is neither x, a
// function called, nor a name bound by let. expr's checker reports such
// names too, but not when they are the argument of a call, which is what
// every operator becomes (literalPatcher).
func checkNames(src string) error {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil // expr.Compile reports it, with its position
	}
	known := namesVisitor{names: map[string]bool{"x": true}, callees: map[ast.Node]bool{}}
	ast.Walk(&tree.Node, &known)
	check := namesVisitor{names: known.names, callees: known.callees, check: true}
	ast.Walk(&tree.Node, &check)
	if check.unknown != nil {
		return (&file.Error{Location: check.unknown.Location(), Message: "unknown name " + check.unknown.Value}).Bind(tree.Source)
	}
	return nil
}

// namesVisitor collects the callees and let names of a formula, or, with
// check set, finds the first other identifier.
type namesVisitor struct {
	names   map[string]bool
	callees map[ast.Node]bool
	check   bool
	unknown *ast.IdentifierNode
}

func (v *namesVisitor) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.CallNode:
		v.callees[n.Callee] = true
	case *ast.VariableDeclaratorNode:
		v.names[n.Name] = true
	case *ast.IdentifierNode:
		if v.check && v.unknown == nil && !v.names[n.Value] && !v.callees[n] {
			v.unknown = n
		}
	}
}

// literalPatcher turns number literals into exact constants (made by
// constant from the literal's exact decimal value), unary minus into a
// call of _neg, and the binary operators named in operators into calls of
// their functions, and passes x as the last argument of a call of
// literals (withX), so that each operation runs with the conversion's
// budget and accelerators (Env), even on literals alone (ln(10)). expr's
// own operator overloading is not used for the last: it does not reach
// operators inside a function's arguments, so log10(x / 20) would not
// compile.
type literalPatcher struct {
	constant  func(*apd.Decimal) any
	operators map[string]string
}

func (lp literalPatcher) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.CallNode:
		n.Arguments = withX(n.Arguments)
	case *ast.BinaryNode:
		if fn, ok := lp.operators[n.Operator]; ok {
			ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: fn}, Arguments: withX([]ast.Node{n.Left, n.Right})})
		}
	case *ast.IntegerNode:
		d, _, _ := apd.NewFromString(strconv.Itoa(n.Value))
		ast.Patch(node, &ast.ConstantNode{Value: lp.constant(d)})
	case *ast.FloatNode:
		ast.Patch(node, &ast.ConstantNode{Value: lp.constant(floatLiteral(n))})
	case *ast.UnaryNode:
		switch n.Operator {
		case "-":
			ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: "_neg"}, Arguments: withX([]ast.Node{n.Node})})
		case "+":
			ast.Patch(node, n.Node)
		}
	}
}

// withX returns the arguments of a call, followed by x, or by a number
// that carries nothing when one of them carries the conversion's Env
// (carrier): x itself, or a call, whose arguments are patched before it
// and so carry it. Fetching x from the environment takes reflection,
// about a hundred instructions, so that most calls do without it. (Each
// function keeps one signature: expr's checker gives every call of a
// function with several the type of its first call.)
func withX(args []ast.Node) []ast.Node {
	for _, a := range args {
		switch a := a.(type) {
		case *ast.CallNode:
			return append(args, &ast.ConstantNode{Value: num{}})
		case *ast.IdentifierNode:
			if a.Value == "x" {
				return append(args, &ast.ConstantNode{Value: num{}})
			}
		}
	}
	return append(args, &ast.IdentifierNode{Value: "x"})
}

// floatLiteral converts a float literal back to the exact decimal it was
// written as: the shortest decimal that rounds to the same float64 is the
// literal itself for any literal of up to 15 significant digits, which
// compileFormula enforces.
func floatLiteral(n *ast.FloatNode) *apd.Decimal {
	d, _, _ := apd.NewFromString(strconv.FormatFloat(n.Value, 'g', -1, 64))
	return d
}

// Pair is a compiled pair of formulas to and from a reference unit.
// A pair whose formulas are Möbius maps (made of + - * / on x and
// literals, such as 100 / x) compiles into two exact maps (ToMap,
// FromMap) and needs no program: the unit's whole map is one exact map.
// Any other pair runs as programs on decimals at a working precision
// (RunTo, RunFrom). A Pair is safe for concurrent use.
type Pair struct {
	ToSrc, FromSrc string
	ToMap, FromMap *exact.Map
	// The programs, compiled by Compile or, for a Deferred pair, on the
	// first run.
	once     sync.Once
	to, from *vm.Program
	err      error
}

// Deferred returns the pair of formulas to and from, compiled on its
// first run: for a catalog that has compiled before (a snapshot of it),
// whose formulas are known to compile, so that a process that never
// runs them never pays for compiling them.
func Deferred(to, from string) *Pair { return &Pair{ToSrc: to, FromSrc: from} }

// programs compiles the pair's programs once.
func (p *Pair) programs() error {
	p.once.Do(func() {
		if p.to != nil || p.from != nil {
			return
		}
		var errTo, errFrom error
		if p.to, errTo = compile(p.ToSrc); errTo == nil {
			p.from, errFrom = compile(p.FromSrc)
		}
		p.err = errors.Join(errTo, errFrom)
	})
	return p.err
}

// RunTo evaluates the formula onto the reference unit at x.
func (p *Pair) RunTo(x *apd.Decimal, work *apd.Context, env Env) (*apd.Decimal, bool, error) {
	if err := p.programs(); err != nil {
		return nil, false, err
	}
	return Run(p.to, x, work, env)
}

// RunFrom evaluates the formula from the reference unit at x.
func (p *Pair) RunFrom(x *apd.Decimal, work *apd.Context, env Env) (*apd.Decimal, bool, error) {
	if err := p.programs(); err != nil {
		return nil, false, err
	}
	return Run(p.from, x, work, env)
}

// Programs returns a pair of programs already compiled: to and from run
// prog (for tests of what a program that misbehaves does).
func Programs(to, from *vm.Program, toSrc, fromSrc string) *Pair {
	p := &Pair{ToSrc: toSrc, FromSrc: fromSrc, to: to, from: from}
	p.once.Do(func() {})
	return p
}

// Compile compiles a pair: into exact maps when both formulas are
// Möbius maps, else into decimal programs.
func Compile(ctx context.Context, to, from string) (*Pair, error, error) {
	return compilePair(ctx, to, from, compile)
}

// CompileRemembering is Compile that takes the programs of formulas it
// compiled before, in any pair, from memory, and remembers those it
// compiles, up to maxRemembered of them: a catalog reloaded compiles its
// formulas once per process. What compile makes of a formula depends on
// its text alone, and programs are immutable, so a remembered one is
// what compiling again would give. It is the engine's accelerator of
// Compile (fast, as the engine's gate says).
func CompileRemembering(ctx context.Context, to, from string) (*Pair, error, error) {
	return compilePair(ctx, to, from, compileRemembered)
}

// remembered holds what compile made of each formula's text, for
// CompileRemembering.
var remembered struct {
	sync.Mutex
	m map[string]compiled
}

type compiled struct {
	prog *vm.Program
	err  error
}

// maxRemembered bounds the formulas remembered: many times a catalog's,
// so that formulas of no catalog (an account's) cannot grow it further.
const maxRemembered = 1024

// compileRemembered is compile, remembered.
func compileRemembered(src string) (*vm.Program, error) {
	remembered.Lock()
	c, ok := remembered.m[src]
	remembered.Unlock()
	if ok {
		return c.prog, c.err
	}
	prog, err := compile(src)
	remembered.Lock()
	defer remembered.Unlock()
	if remembered.m == nil {
		remembered.m = map[string]compiled{}
	}
	if len(remembered.m) < maxRemembered {
		remembered.m[strings.Clone(src)] = compiled{prog, err}
	}
	return prog, err
}

// compilePair is Compile with the programs compiled by compile.
func compilePair(ctx context.Context, to, from string, compile func(string) (*vm.Program, error)) (*Pair, error, error) {
	f := &Pair{ToSrc: to, FromSrc: from}
	for _, src := range []string{to, from} {
		if err := checkLiterals(src); err != nil {
			return nil, pick(src == to, err), pick(src == from, err)
		}
	}
	toMap, errTo := mapOf(to)
	fromMap, errFrom := mapOf(from)
	switch {
	case errors.Is(errTo, exact.ErrTooLarge):
		return nil, errTo, nil
	case errors.Is(errFrom, exact.ErrTooLarge):
		return nil, nil, errFrom
	case toMap != nil && fromMap != nil:
		// Build checks that they invert each other (checkFormulas).
		f.ToMap, f.FromMap = toMap, fromMap
		return f, nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err, nil
	}
	f.to, errTo = compile(to)
	f.from, errFrom = compile(from)
	f.once.Do(func() {})
	return f, errTo, errFrom
}

func pick(ok bool, err error) error {
	if ok {
		return err
	}
	return nil
}

// compile compiles one formula in x to a decimal program.
func compile(src string) (*vm.Program, error) {
	if err := checkLiterals(src); err != nil {
		return nil, err
	}
	if err := checkNames(src); err != nil {
		return nil, err
	}
	prog, err := expr.Compile(src, formulaOptions...)
	if err != nil {
		return nil, err
	}
	// One run at x = 10 catches what type checking cannot (10 keeps
	// logarithms and powers of ten on their fast, exact paths).
	if _, err := runProgram(prog, formulaEnv{X: num{d: apd.New(10, 0), ctx: defaultWork, fast: true, carries: true}}); err != nil && !errors.Is(err, ErrDomain) {
		return nil, err
	}
	return prog, nil
}

// checkLiterals rejects number literals that a float64 cannot carry back
// to their exact text (more than 15 significant digits): write those as a
// product or quotient of shorter literals.
func checkLiterals(src string) error {
	for i := 0; i < len(src); {
		c := src[i]
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' {
			// Skip identifiers, which may contain digits (log10).
			for i < len(src) && (isIdent(src[i])) {
				i++
			}
			continue
		}
		if c < '0' || c > '9' {
			i++
			continue
		}
		j := i
		digits := 0
		leading := true
		for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == '_') {
			if src[j] >= '0' && src[j] <= '9' {
				if src[j] != '0' || !leading {
					digits++
					leading = false
				}
			}
			j++
		}
		if digits > 15 {
			return fmt.Errorf("number literal %q has more than 15 significant digits; write it as a product or quotient of shorter ones", src[i:j])
		}
		i = j
	}
	return nil
}

func isIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// Run evaluates prog for x in the working context.
func Run(prog *vm.Program, x *apd.Decimal, work *apd.Context, r Env) (*apd.Decimal, bool, error) {
	out, err := runProgram(prog, formulaEnv{X: num{d: x, ctx: work, budget: r.Budget, fast: r.Fast, carries: true}})
	if err != nil {
		return nil, false, err
	}
	v, ok := out.(num)
	if !ok {
		return nil, false, fmt.Errorf("formula returned %T, not a number", out)
	}
	return v.d, v.inexact, nil
}

// vms keeps expr virtual machines for reuse: a VM may run any program, one
// at a time, and reusing one saves allocating its stack on every
// conversion.
var vms = sync.Pool{New: func() any { return new(vm.VM) }}

// runProgram runs a compiled formula on a pooled VM.
func runProgram(prog *vm.Program, env any) (any, error) {
	m := vms.Get().(*vm.VM)
	defer vms.Put(m)
	return m.Run(prog, env)
}
