package ratelimit

import (
	"strings"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	tests := []struct {
		in      string
		want    Rate
		wantErr string
	}{
		{"600/m", Rate{600, time.Minute}, ""},
		{"1/s", Rate{1, time.Second}, ""},
		{"10/h", Rate{10, time.Hour}, ""},
		{"007/s", Rate{7, time.Second}, ""},
		{"1000000000/s", Rate{1_000_000_000, time.Second}, ""},
		{"", Rate{}, "want N/s"},
		{"600", Rate{}, "want N/s"},
		{"600/", Rate{}, "unit"},
		{"600/min", Rate{}, "unit"},
		{"600/M", Rate{}, "unit"},
		{"600/d", Rate{}, "unit"},
		{"/m", Rate{}, "positive integer"},
		{"0/m", Rate{}, "positive"},
		{"-1/m", Rate{}, "positive integer"},
		{"+5/m", Rate{}, "positive integer"},
		{" 5/m", Rate{}, "positive integer"},
		{"5 /m", Rate{}, "positive integer"},
		{"1.5/s", Rate{}, "positive integer"},
		{"1e3/s", Rate{}, "positive integer"},
		{"99999999999999999999/s", Rate{}, "too large"},
		{"2000000000/s", Rate{}, "nanosecond"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRate(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseRate(%q) = %v, %v; want error containing %q", tt.in, got, err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.in) {
					t.Errorf("error %q does not quote the input", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseRate(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestRateString(t *testing.T) {
	for _, s := range []string{"600/m", "1/s", "10/h"} {
		r, err := ParseRate(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.String(); got != s {
			t.Errorf("String() = %q, want %q", got, s)
		}
	}
	if got := (Rate{5, 90 * time.Second}).String(); got != "5/1m30s" {
		t.Errorf("String() = %q", got)
	}
}
