package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/unitd/unitd/engine"
)

// TestHugeFactorsAreRefused: codes and expressions whose exact factor
// would be too large to state (each part valid, their product beyond the
// kernel's bound) are INVALID_UNIT_EXPRESSION wherever a unit is read,
// never a panic.
func TestHugeFactorsAreRefused(t *testing.T) {
	g := shipped(t)
	for _, name := range []string{
		"ucum:" + strings.Repeat("10*300.", 8) + "10*300",
		"cldr:" + strings.Repeat("pow9-quettameter-", 9) + "pow9-quettameter",
		"ucum:" + strings.Repeat("YL99/yL99.", 9) + "YL99/yL99",
		"ucum:YL99/yL99",
		"ucum:" + strings.Repeat("(YL99/yL99).", 9) + "(YL99/yL99)",
		strings.Repeat("Ym^9*", 10) + "Ym^9/ym^9",
		"qudt:" + strings.Repeat("X", 300),
	} {
		for _, req := range []engine.Request{
			{Value: "1", From: name, To: "m"},
			{Value: "1", From: "m", To: name},
			{Value: "1", From: name, To: name},
		} {
			_, panicked, err := convertRecovering(g, req)
			var e *engine.Error
			if panicked || !errors.As(err, &e) || (e.Code != engine.CodeInvalidUnitExpression && e.Code != engine.CodeUnknownUnit && e.Code != engine.CodeIncompatibleUnits) {
				t.Errorf("%.60s → %.60s: panicked %v, error %v; want INVALID_UNIT_EXPRESSION", req.From, req.To, panicked, err)
			}
		}
		if _, _, err := g.Resolve(name); err == nil {
			t.Errorf("Resolve(%.60s) accepted a factor beyond the bound", name)
		}
	}
}
