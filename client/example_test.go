package client_test

import (
	"context"
	"fmt"
	"slices"

	"github.com/unitd/unitd/client"
)

// The examples run against a real server of the shipped catalog
// (exampleServer, in server_test.go); a program names its own server and key,
// such as client.New("https://unitd.example.com", client.WithKey(os.Getenv("UNITD_KEY"))).

func Example() {
	srv := exampleServer()
	c, err := client.New(srv.URL, client.WithKey(srv.Key))
	if err != nil {
		panic(err)
	}
	conv, err := c.Convert(context.Background(), client.Request{Value: "12.5", From: "ft", To: "m"})
	if err != nil {
		panic(err)
	}
	fmt.Println(conv.Input.Value, conv.Input.Unit, "=", conv.Result.Value, conv.Result.Unit, "exact:", conv.Exact)
	// Output: 12.5 ft = 3.81 m exact: true
}

func ExampleClient_Convert_freeText() {
	srv := exampleServer()
	c, _ := client.New(srv.URL, client.WithKey(srv.Key))
	conv, err := c.Convert(context.Background(), client.Request{Q: "5 ft 3 in to cm", Locale: "de"})
	if err != nil {
		panic(err)
	}
	fmt.Println(conv.Result.Value, conv.Result.Unit)
	fmt.Println(conv.Result.Text)
	// Output:
	// 160.02 cm
	// 160,02 cm
}

func ExampleClient_Explain() {
	srv := exampleServer()
	c, _ := client.New(srv.URL, client.WithKey(srv.Key))
	conv, err := c.Explain(context.Background(), client.Request{Value: "1", From: "mi", To: "km"})
	if err != nil {
		panic(err)
	}
	fmt.Println(conv.Result.Value, conv.Result.Unit, "factor", conv.Explain.Factor)
	for _, s := range conv.Explain.Steps {
		fmt.Println(s.Definition)
	}
	// Output:
	// 1.609344 km factor 1.609344
	// 1 mi = 5280 ft
	// 1 ft = 12 in
	// 1 in = 2.54 cm
	// 1 cm = 1/100 m
	// m is the base unit of length
	// 1 km = 1000 m
}

func ExampleClient_Batch() {
	srv := exampleServer()
	c, _ := client.New(srv.URL, client.WithKey(srv.Key))
	items, err := c.Batch(context.Background(), []client.Request{
		{Value: "100", From: "degC", To: "degF"},
		{Value: "1", From: "gallon", To: "L"},
		{Value: "60", From: "mi/h", To: "km/h"},
	}, client.BatchOptions{Precision: 10})
	if err != nil {
		panic(err)
	}
	for _, it := range items {
		if it.Err != nil {
			fmt.Println(it.Index, it.Err.Code, it.Err.Candidates)
			continue
		}
		fmt.Println(it.Index, it.Result.Value, it.Result.Unit)
	}
	// Output:
	// 0 212 degF
	// 1 AMBIGUOUS_UNIT [gal gal_imp]
	// 2 96.56064 km/h
}

func ExampleClient_Stream() {
	srv := exampleServer()
	c, _ := client.New(srv.URL, client.WithKey(srv.Key))
	rows := []client.Request{
		{Value: "12.5", From: "ft", To: "m"},
		{Value: "abc", From: "ft", To: "m"},
		{Quantity: "72 °F", To: "degC"},
	}
	// Any iter.Seq[client.Request] will do: rows read from a file, say.
	for it, err := range c.Stream(context.Background(), slices.Values(rows), client.BatchOptions{Precision: 6}) {
		if err != nil {
			fmt.Println("stream:", err)
			break
		}
		if it.Err != nil {
			fmt.Println(it.Index, it.Err.Code)
			continue
		}
		fmt.Println(it.Index, it.Result.Value, it.Result.Unit)
	}
	// Output:
	// 0 3.81 m
	// 1 INVALID_VALUE
	// 2 22.2222 degC
}

func ExampleCode() {
	srv := exampleServer()
	c, _ := client.New(srv.URL, client.WithKey(srv.Key))
	_, err := c.Convert(context.Background(), client.Request{Value: "1", From: "meterz", To: "ft"})
	switch client.Code(err) {
	case client.CodeUnknownUnit:
		e := err.(*client.Error)
		fmt.Println(e.Status, e.Code, "suggestions:", e.Suggestions)
	default:
		fmt.Println(err)
	}
	// Output: 400 UNKNOWN_UNIT suggestions: [m]
}

func ExampleClient_Unit() {
	srv := exampleServer()
	c, _ := client.New(srv.URL) // the catalog needs no key
	u, err := c.Unit(context.Background(), "km/h")
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Symbol, u.Name, u.Category, u.Definition.Factor, u.Definition.Unit)
	// Output: km/h kilometre per hour speed 1000/3600 m/s
}
