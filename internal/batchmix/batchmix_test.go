package batchmix

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestBody checks the batch holds Size conversions cycling through the
// pairs, and that WithDBm changes only the 24th pair.
func TestBody(t *testing.T) {
	var req struct {
		Conversions []struct{ Value, From, To string }
	}
	if err := json.Unmarshal(Body(WithDBm(Pairs)), &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Conversions) != Size {
		t.Fatalf("%d conversions, want %d", len(req.Conversions), Size)
	}
	for i, c := range req.Conversions {
		want := Pairs[i%len(Pairs)]
		if i%len(Pairs) == 23 {
			want = [2]string{"dBm", "mW"}
		}
		if c.From != want[0] || c.To != want[1] || c.Value == "" {
			t.Errorf("item %d = %+v, want %v", i, c, want)
		}
	}
	if Pairs[23][0] == "dBm" {
		t.Error("WithDBm changed Pairs itself")
	}
}

// TestLines: Lines yields n lines, line i being row i mod Rows, whatever
// the size of the reads; AppendText writes the same rows as AppendItem.
func TestLines(t *testing.T) {
	const n = Rows + 7
	ndjson := func(b []byte, i int) []byte { return append(AppendItem(b, Pairs, i), '\n') }
	for _, size := range []int{1, 7, 4096} {
		var got []byte
		r := Lines(n, ndjson)
		buf := make([]byte, size)
		for {
			k, err := r.Read(buf)
			got = append(got, buf[:k]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
		if len(lines) != n {
			t.Fatalf("reads of %d: %d lines, want %d", size, len(lines), n)
		}
		for i, line := range lines {
			var item struct{ Value, From, To string }
			if err := json.Unmarshal([]byte(line), &item); err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
			value, from, to := Row(Pairs, i%Rows)
			if item.Value != value || item.From != from || item.To != to {
				t.Fatalf("line %d = %s, want row %d", i, line, i%Rows)
			}
			if text := string(AppendText(nil, Pairs, i%Rows)); text != value+" "+from+" "+to+"\n" {
				t.Fatalf("text of row %d = %q", i%Rows, text)
			}
		}
	}
}
