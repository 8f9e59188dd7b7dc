package exact

import (
	"errors"
	"math/big"

	"github.com/cockroachdb/apd/v3"
)

// SetInt sets d to the integer i.
func SetInt(d *apd.Decimal, i *big.Int) {
	d.Coeff.SetMathBigInt(new(big.Int).Abs(i))
	d.Negative = i.Sign() < 0
	d.Exponent = 0
	d.Form = apd.Finite
}

// DescribeMapError says what a failed composition of maps means for a catalog.
func DescribeMapError(err error) string {
	if errors.Is(err, ErrPiInside) {
		return "an offset or a formula cannot be combined with a factor involving pi"
	}
	return err.Error()
}
