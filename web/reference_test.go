package web

import (
	"strings"
	"testing"
)

// TestReference reads a small OpenAPI document: tags in the document's
// order, operations by path and method, parameters and responses behind
// $ref resolved, code spans as <code>, and everything else escaped.
func TestReference(t *testing.T) {
	doc := `{"info":{"title":"unitd","version":"1","summary":"Converts <units>."},
"tags":[{"name":"conversion","description":"Needs a key."},{"name":"discovery","description":"Public."}],
"paths":{
 "/v1/units":{"get":{"operationId":"listUnits","summary":"Units","tags":["discovery"],
   "parameters":[{"$ref":"#/components/parameters/q"}],
   "responses":{"200":{"description":"The units.","content":{"application/json":{"schema":{"$ref":"#/components/schemas/UnitList"}}}}}}},
 "/v1/convert":{"post":{"operationId":"convertPost","summary":"Convert","tags":["conversion"],"security":[{"bearer":[]}],
   "description":"Reads ` + "`value`" + ` as <b>text</b>.",
   "requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ConvertRequest"},"example":{"value":"1","from":"ft","to":"m"}}}},
   "responses":{"422":{"$ref":"#/components/responses/Unprocessable"},"200":{"description":"OK."}}},
  "get":{"operationId":"convertGet","summary":"Convert by query","tags":["conversion"],"security":[{"bearer":[]}],
   "parameters":[{"name":"value","in":"query","required":true,"description":"A decimal.","schema":{"type":["string","number"]},"example":"12.5"}],
   "responses":{"200":{"description":"OK."}}}}},
"components":{"parameters":{"q":{"name":"q","in":"query","description":"Search ` + "`names`" + `.","schema":{"type":"string"}}},
 "responses":{"Unprocessable":{"description":"The conversion cannot be done."}}}}`
	ref, err := newReference([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(ref.Groups) != 2 || ref.Groups[0].Name != "conversion" || ref.Groups[1].Name != "discovery" || ref.Paths != 2 {
		t.Fatalf("groups %+v", ref.Groups)
	}
	conv := ref.Groups[0].Ops
	if len(conv) != 2 || conv[0].Method != "GET" || conv[1].Method != "POST" || !conv[0].NeedsKey {
		t.Fatalf("conversion operations %+v", conv)
	}
	if p := conv[0].Params[0]; p.Name != "value" || !p.Required || p.Type != "string or number" || p.Example != "12.5" {
		t.Errorf("parameter %+v", p)
	}
	post := conv[1]
	if post.Body == nil || post.Body.Schema != "ConvertRequest" || !strings.Contains(post.Body.Example, `"from": "ft"`) {
		t.Errorf("request body %+v", post.Body)
	}
	if string(post.Description) != "Reads <code>value</code> as &lt;b&gt;text&lt;/b&gt;." {
		t.Errorf("description %q", post.Description)
	}
	if len(post.Responses) != 2 || post.Responses[0].Status != "200" || post.Responses[1].Description != "The conversion cannot be done." {
		t.Errorf("responses %+v", post.Responses)
	}
	units := ref.Groups[1].Ops[0]
	if units.NeedsKey || units.Params[0].Name != "q" || string(units.Params[0].Description) != "Search <code>names</code>." || units.Responses[0].Schema != "UnitList" {
		t.Errorf("listUnits %+v", units)
	}
	if string(ref.Summary) != "Converts &lt;units&gt;." {
		t.Errorf("summary %q", ref.Summary)
	}
	if _, err := newReference([]byte("{")); err == nil {
		t.Error("a document that is not JSON was read")
	}
}
