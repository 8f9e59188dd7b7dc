package engine

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/cockroachdb/apd/v3"
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// num is the value type of formulas: an immutable decimal, the context its
// operations round in, and whether any rounding has happened on the way to
// it. Literals carry no context and adopt their operand's.
type num struct {
	d       *apd.Decimal
	ctx     *apd.Context
	inexact bool
	budget  *Budget // the request's, carried from x to every result
}

// formulaEnv is the environment a formula runs in: the input value x.
type formulaEnv struct {
	X num `expr:"x"`
}

// errDomain marks an input outside a formula's domain.
var errDomain = errors.New("outside the domain")

type binaryOp func(c *apd.Context, d, x, y *apd.Decimal) (apd.Condition, error)
type unaryOp func(c *apd.Context, d, x *apd.Decimal) (apd.Condition, error)

// budgeted adapts an operation that takes the request's Budget.
type budgetedBinary func(c *apd.Context, d, x, y *apd.Decimal, b *Budget) (apd.Condition, error)
type budgetedUnary func(c *apd.Context, d, x *apd.Decimal, b *Budget) (apd.Condition, error)

func plainBinary(op binaryOp) budgetedBinary {
	return func(c *apd.Context, d, x, y *apd.Decimal, _ *Budget) (apd.Condition, error) { return op(c, d, x, y) }
}

// mulDecimal is x·y at c's precision. Decibel formulas multiply and
// divide by powers of ten (10 * log10(x), x / 10); when one operand is one
// and the other fits the precision, the result is the other with its
// exponent shifted, and apd's rounding machinery is skipped (an
// accelerator: the same value, behind optimize).
func mulDecimal(c *apd.Context, d, x, y *apd.Decimal) (apd.Condition, error) {
	if optimize {
		if e, ok := powerOfTen(y); ok && shiftTen(c, d, x, e) {
			return 0, nil
		}
		if e, ok := powerOfTen(x); ok && shiftTen(c, d, y, e) {
			return 0, nil
		}
	}
	return c.Mul(d, x, y)
}

// quoDecimal is x/y at c's precision, shifting for a power of ten y as
// mulDecimal does.
func quoDecimal(c *apd.Context, d, x, y *apd.Decimal) (apd.Condition, error) {
	if optimize {
		if e, ok := powerOfTen(y); ok && shiftTen(c, d, x, -e) {
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

func plainUnary(op unaryOp) budgetedUnary {
	return func(c *apd.Context, d, x *apd.Decimal, _ *Budget) (apd.Condition, error) { return op(c, d, x) }
}

// transcendental is fn correctly rounded, charging its slow path to the
// request's budget.
func transcendental(fn function) budgetedUnary {
	return func(c *apd.Context, d, x *apd.Decimal, b *Budget) (apd.Condition, error) {
		return crFunction(c, d, x, fn, b)
	}
}

func pickBudget(a, b num) *Budget {
	if a.budget != nil {
		return a.budget
	}
	return b.budget
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

func binary(name string, op budgetedBinary) func(params ...any) (any, error) {
	return func(params ...any) (any, error) {
		a, b := params[0].(num), params[1].(num)
		c := pickCtx(a, b)
		r := num{d: new(apd.Decimal), ctx: c, inexact: a.inexact || b.inexact, budget: pickBudget(a, b)}
		cond, err := op(c, r.d, a.d, b.d, r.budget)
		if errors.Is(err, errBudget) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%s(%s, %s): %w", name, a.d, b.d, errDomain)
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

func unary(name string, op budgetedUnary, domain func(x *apd.Decimal) bool) func(params ...any) (any, error) {
	return func(params ...any) (any, error) {
		a := params[0].(num)
		c := pickCtx(a, a)
		if domain != nil && !domain(a.d) {
			return nil, fmt.Errorf("%s(%s): %w", name, a.d, errDomain)
		}
		r := num{d: new(apd.Decimal), ctx: c, inexact: a.inexact, budget: a.budget}
		cond, err := op(c, r.d, a.d, r.budget)
		if errors.Is(err, errBudget) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%s(%s): %w", name, a.d, errDomain)
		}
		r.inexact = r.inexact || cond.Inexact()
		return r, nil
	}
}

// pow is x^y; with the base 10 of decibel formulas it is 10^y correctly
// rounded, exact for a whole y.
func pow(c *apd.Context, d, x, y *apd.Decimal, b *Budget) (apd.Condition, error) {
	var r apd.Decimal
	r.Reduce(x)
	if r.Negative || r.Coeff.Cmp(bigOne) != 0 || r.Exponent != 1 || c.Precision == 0 {
		return c.Pow(d, x, y)
	}
	return crFunction(c, d, y, fnExp10, b)
}

var bigOne = apd.NewBigInt(1)

func positive(x *apd.Decimal) bool    { return x.Sign() > 0 }
func nonNegative(x *apd.Decimal) bool { return x.Sign() >= 0 }

var (
	binarySig = new(func(num, num) num)
	unarySig  = new(func(num) num)
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
	expr.Function("_mul", binary("mul", plainBinary(mulDecimal)), binarySig),
	expr.Function("_quo", binary("div", plainBinary(quoDecimal)), binarySig),
	expr.Function("pow", binary("pow", pow), binarySig),
	expr.Function("_neg", unary("neg", plainUnary((*apd.Context).Neg), nil), unarySig),
	expr.Function("abs", unary("abs", plainUnary((*apd.Context).Abs), nil), unarySig),
	expr.Function("ln", unary("ln", transcendental(fnLn), positive), unarySig),
	expr.Function("log10", unary("log10", transcendental(fnLog10), positive), unarySig),
	expr.Function("exp", unary("exp", transcendental(fnExp), nil), unarySig),
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
// their functions. expr's own operator overloading is not used for the
// last: it does not reach operators inside a function's arguments, so
// log10(x / 20) would not compile.
type literalPatcher struct {
	constant  func(*apd.Decimal) any
	operators map[string]string
}

func (lp literalPatcher) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.BinaryNode:
		if fn, ok := lp.operators[n.Operator]; ok {
			ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: fn}, Arguments: []ast.Node{n.Left, n.Right}})
		}
	case *ast.IntegerNode:
		d, _, _ := apd.NewFromString(strconv.Itoa(n.Value))
		ast.Patch(node, &ast.ConstantNode{Value: lp.constant(d)})
	case *ast.FloatNode:
		ast.Patch(node, &ast.ConstantNode{Value: lp.constant(floatLiteral(n))})
	case *ast.UnaryNode:
		switch n.Operator {
		case "-":
			ast.Patch(node, &ast.CallNode{Callee: &ast.IdentifierNode{Value: "_neg"}, Arguments: []ast.Node{n.Node}})
		case "+":
			ast.Patch(node, n.Node)
		}
	}
}

// floatLiteral converts a float literal back to the exact decimal it was
// written as: the shortest decimal that rounds to the same float64 is the
// literal itself for any literal of up to 15 significant digits, which
// compileFormula enforces.
func floatLiteral(n *ast.FloatNode) *apd.Decimal {
	d, _, _ := apd.NewFromString(strconv.FormatFloat(n.Value, 'g', -1, 64))
	return d
}

// formula is a compiled pair of formulas to and from a reference unit.
// A rational formula uses only + - * / on x and literals; it runs on exact
// fractions, so a conversion through it is still exact and rounded once.
// Any other formula runs on decimals at a working precision.
type formula struct {
	to, from       *vm.Program
	toSrc, fromSrc string
	rational       bool
	// toMob and fromMob are the Möbius maps of rational formulas that
	// are one (see mobius.go), or nil.
	toMob, fromMob *mobius
}

// compileFormulas compiles a pair, as rational formulas when both are.
func compileFormulas(to, from string) (*formula, error, error) {
	f := &formula{toSrc: to, fromSrc: from, rational: true}
	var errTo, errFrom error
	if f.to, errTo = compileFormula(to, rationalMode); errTo == nil {
		f.from, errFrom = compileFormula(from, rationalMode)
	}
	if errTo == nil && errFrom == nil {
		f.toMob, _ = mobiusOf(to)
		f.fromMob, _ = mobiusOf(from)
		return f, nil, nil
	}
	f.rational = false
	f.to, errTo = compileFormula(to, decimalMode)
	f.from, errFrom = compileFormula(from, decimalMode)
	return f, errTo, errFrom
}

// formulaMode is a way of running formulas: the expr options and the
// environment holding x.
type formulaMode struct {
	opts []expr.Option
	env  func(x *apd.Decimal) any
}

var decimalMode = formulaMode{
	opts: formulaOptions,
	env:  func(x *apd.Decimal) any { return formulaEnv{X: num{d: x, ctx: defaultWork}} },
}

// compileFormula compiles one formula in x.
func compileFormula(src string, mode formulaMode) (*vm.Program, error) {
	if err := checkLiterals(src); err != nil {
		return nil, err
	}
	if err := checkNames(src); err != nil {
		return nil, err
	}
	prog, err := expr.Compile(src, mode.opts...)
	if err != nil {
		return nil, err
	}
	// One run at x = 10 catches what type checking cannot (10 keeps
	// logarithms and powers of ten on their fast, exact paths).
	if _, err := expr.Run(prog, mode.env(apd.New(10, 0))); err != nil && !errors.Is(err, errDomain) {
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

// run evaluates prog for x in the working context.
func runFormula(prog *vm.Program, x *apd.Decimal, work *apd.Context, budget *Budget) (*apd.Decimal, bool, error) {
	out, err := runProgram(prog, formulaEnv{X: num{d: x, ctx: work, budget: budget}})
	if err != nil {
		return nil, false, err
	}
	r, ok := out.(num)
	if !ok {
		return nil, false, fmt.Errorf("formula returned %T, not a number", out)
	}
	return r.d, r.inexact, nil
}

// eval runs one program of the pair on x and returns the result rounded
// to the working context, for checks at build time.
func (f *formula) eval(prog *vm.Program, x *apd.Decimal, work *apd.Context) (*apd.Decimal, error) {
	if !f.rational {
		y, _, err := runFormula(prog, x, work, nil)
		return y, err
	}
	r, err := runRational(prog, frac{n: *x, d: fracOne})
	if err != nil {
		return nil, err
	}
	var y apd.Decimal
	_, err = arith(work.Quo(&y, &r.n, &r.d))
	return &y, err
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
