package codes_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/unitd/unitd/catalog"
	"github.com/unitd/unitd/engine/codes"
)

// TestTableRemembers reads every code of the shipped tables, and some
// that are no code, through Table twice (from several goroutines), and
// wants what the tables themselves say each time; then it fills the Set
// past what it remembers and wants it to stop at its bound.
func TestTableRemembers(t *testing.T) {
	tables, err := catalog.CodeTables()
	if err != nil {
		t.Fatal(err)
	}
	set, errs := codes.Compile(tables)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	type query struct{ system, code string }
	var queries []query
	for _, system := range []string{codes.SystemUCUM, codes.SystemCLDR, codes.SystemQUDT} {
		for _, c := range set.Codes(system) {
			queries = append(queries, query{system, c})
		}
		queries = append(queries, query{system, "no-such-code"}, query{system, ""})
	}
	queries = append(queries, query{codes.SystemUCUM, "kg.m/s2"}, query{codes.SystemCLDR, "meter-per-second"})
	same := func(q query) {
		m, err := set.Table(q.system, q.code)
		want, wantErr := set.TableUnremembered(q.system, q.code)
		if !reflect.DeepEqual(m, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("Table(%s, %q) = %+v, %v; the tables say %+v, %v", q.system, q.code, m, err, want, wantErr)
		}
	}
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for _, q := range queries {
				same(q)
			}
		})
	}
	wg.Wait()
	if n := set.Remembered(); n != int64(len(queries)) {
		t.Errorf("the Set remembers %d answers of %d distinct queries", n, len(queries))
	}
	for i := 0; set.Remembered() < codes.MaxRemembered; i++ {
		set.Table(codes.SystemUCUM, fmt.Sprintf("m{%d}", i))
	}
	q := query{codes.SystemUCUM, "m{beyond}"}
	same(q)
	same(q)
	if n := set.Remembered(); n != codes.MaxRemembered {
		t.Errorf("the Set remembers %d answers; at most %d", n, codes.MaxRemembered)
	}
}
