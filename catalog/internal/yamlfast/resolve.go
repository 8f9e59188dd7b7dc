package yamlfast

import (
	"strconv"
	"strings"
	"time"
)

// resolve returns the tag yaml.v3 gives the plain scalar v: its resolve
// function of go.yaml.in/yaml/v3 v3.0.6 (resolve.go) for an untagged
// value, step for step, without the values it decodes.
func resolve(v string) string {
	if v == "" {
		return "!!null"
	}
	switch v[0] {
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', '~', '<':
		return mapped(v)
	case '.':
		if tag := mapped(v); tag != "!!str" {
			return tag
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return "!!float"
		}
		return "!!str"
	case '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if tag := mapped(v); tag != "!!str" {
			return tag
		}
		return number(v)
	}
	return "!!str"
}

// mapped is the tag of the words yaml.v3 looks up, or !!str.
func mapped(v string) string {
	switch v {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "~", "null", "Null", "NULL":
		return "!!null"
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "!!float"
	case "<<":
		return "!!merge"
	}
	return "!!str"
}

// floatSyntax reports whether s matches yaml.v3's pattern of a float,
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$, without a
// regular expression.
func floatSyntax(s string) bool {
	digits := func(i int) int { // the offset past the digits at i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return false // \.[0-9]+
		}
		i = j
	} else {
		j := digits(i)
		if j == i {
			return false // [0-9]+
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i = digits(i + 1) // (\.[0-9]*)?
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		j := digits(i)
		if j == i {
			return false // [0-9]+
		}
		i = j
	}
	return i == len(s)
}

// number is the tag of a value that starts with a sign or a digit.
func number(v string) string {
	if timestamp(v) {
		return "!!timestamp"
	}
	// strconv's failures allocate: most values are no number at all.
	for i := 0; i < len(v); i++ {
		if c := v[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' ||
			strings.IndexByte("+-._xXoO", c) >= 0) {
			return "!!str"
		}
	}
	plain := strings.ReplaceAll(v, "_", "")
	// No integer has a '.': a decimal like 0.3048, the most common
	// number of all, skips the two failures, which allocate.
	if strings.IndexByte(plain, '.') < 0 {
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return "!!int"
		}
	}
	if floatSyntax(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return "!!float"
		}
	}
	switch {
	case strings.HasPrefix(plain, "0b"):
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return "!!int"
		}
	case strings.HasPrefix(plain, "-0b"):
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return "!!int"
		}
	}
	switch {
	case strings.HasPrefix(plain, "0o"):
		if _, err := strconv.ParseInt(plain[2:], 8, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(plain[2:], 8, 64); err == nil {
			return "!!int"
		}
	case strings.HasPrefix(plain, "-0o"):
		if _, err := strconv.ParseInt("-"+plain[3:], 8, 64); err == nil {
			return "!!int"
		}
	}
	return "!!str"
}

// timestampFormats are the layouts yaml.v3 reads a timestamp in.
var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// timestamp reports whether yaml.v3 reads v as a timestamp: four digits
// and a '-', then one of its layouts.
func timestamp(v string) bool {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i != 4 || i == len(v) || v[i] != '-' {
		return false
	}
	for _, layout := range timestampFormats {
		if _, err := time.Parse(layout, v); err == nil {
			return true
		}
	}
	return false
}
