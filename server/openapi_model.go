package server

import "encoding/json"

// The shape of an OpenAPI 3.1 document, as far as unitd's description
// uses it: the compiler checks every field name and type the generator
// writes. Field order is output order.

type apiDocument struct {
	OpenAPI           string             `json:"openapi"`
	JSONSchemaDialect string             `json:"jsonSchemaDialect"`
	Info              apiInfo            `json:"info"`
	Servers           []apiServer        `json:"servers"`
	Tags              []apiTag           `json:"tags"`
	Paths             map[string]apiPath `json:"paths"`
	Components        apiComponents      `json:"components"`
}

type apiInfo struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Summary     string `json:"summary"`
	Description string `json:"description"`
}

type apiServer struct {
	URL string `json:"url"`
}

type apiTag struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// apiPath maps a lower-case HTTP method to its operation.
type apiPath map[string]*apiOperation

type apiOperation struct {
	OperationID string                 `json:"operationId"`
	Summary     string                 `json:"summary"`
	Tags        []string               `json:"tags"`
	Description string                 `json:"description,omitempty"`
	Parameters  []apiParameter         `json:"parameters"`
	RequestBody *apiRequestBody        `json:"requestBody,omitempty"`
	Responses   map[string]apiResponse `json:"responses"`
	// Security is [{"bearerAuth": []}] on authenticated operations and
	// [] on public ones: said explicitly, so that linters and generators
	// know the operation needs no credentials.
	Security []map[string][]string `json:"security"`
}

type apiParameter struct {
	Name        string  `json:"name"`
	In          string  `json:"in"` // path, query or header
	Required    bool    `json:"required"`
	Description string  `json:"description"`
	Schema      *schema `json:"schema"`
	Example     any     `json:"example,omitempty"`
}

type apiRequestBody struct {
	Required bool                    `json:"required"`
	Content  map[string]apiMediaType `json:"content"`
}

type apiMediaType struct {
	Schema   *schema               `json:"schema"`
	Example  any                   `json:"example,omitempty"`
	Examples map[string]apiExample `json:"examples,omitempty"`
	// ItemSchema is the schema of each line of an NDJSON body: OpenAPI
	// 3.2's itemSchema, which 3.1 lacks, written as an extension until
	// the document moves to 3.2.
	ItemSchema *schema `json:"x-itemSchema,omitempty"`
}

type apiExample struct {
	Summary string `json:"summary"`
	Value   any    `json:"value"`
}

// apiResponse is either a reference (Ref) or a response.
type apiResponse struct {
	Ref         string                  `json:"$ref,omitempty"`
	Description string                  `json:"description,omitempty"`
	Headers     map[string]apiHeader    `json:"headers,omitempty"`
	Content     map[string]apiMediaType `json:"content,omitempty"`
}

// apiHeader is either a reference (Ref) or a header.
type apiHeader struct {
	Ref         string  `json:"$ref,omitempty"`
	Description string  `json:"description,omitempty"`
	Required    bool    `json:"required,omitempty"`
	Schema      *schema `json:"schema,omitempty"`
}

type apiComponents struct {
	Schemas         map[string]*schema           `json:"schemas"`
	Headers         map[string]apiHeader         `json:"headers"`
	Responses       map[string]apiResponse       `json:"responses"`
	SecuritySchemes map[string]apiSecurityScheme `json:"securitySchemes"`
}

type apiSecurityScheme struct {
	Type         string `json:"type"`
	Scheme       string `json:"scheme"`
	BearerFormat string `json:"bearerFormat"`
	Description  string `json:"description"`
}

// schema is a JSON Schema (2020-12) with the keywords the document uses.
type schema struct {
	Ref                  string             `json:"$ref,omitempty"`
	Type                 types              `json:"type,omitempty"`
	Format               string             `json:"format,omitempty"`
	Pattern              string             `json:"pattern,omitempty"`
	Description          string             `json:"description,omitempty"`
	Const                string             `json:"const,omitempty"`
	Enum                 []string           `json:"enum,omitempty"`
	Minimum              *int               `json:"minimum,omitempty"`
	Maximum              *int               `json:"maximum,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
	MaxLength            *int               `json:"maxLength,omitempty"`
	MinItems             *int               `json:"minItems,omitempty"`
	MaxItems             *int               `json:"maxItems,omitempty"`
	Items                *schema            `json:"items,omitempty"`
	Required             []string           `json:"required,omitempty"`
	Properties           map[string]*schema `json:"properties,omitempty"`
	AdditionalProperties *bool              `json:"additionalProperties,omitempty"`
	OneOf                []*schema          `json:"oneOf,omitempty"`
	Examples             []any              `json:"examples,omitempty"`
	Discriminator        *apiDiscriminator  `json:"discriminator,omitempty"`
	// GoType tells oapi-codegen which Go type holds the value (x-go-type):
	// json.Number for a JSON number whose digits must survive, where it
	// would otherwise take float32. (Its package, encoding/json, is one
	// every client it writes imports.)
	GoType string `json:"x-go-type,omitempty"`
}

// apiDiscriminator names the property whose value says which schema of a
// oneOf an object is.
type apiDiscriminator struct {
	PropertyName string            `json:"propertyName"`
	Mapping      map[string]string `json:"mapping"`
}

func intp(n int) *int    { return &n }
func boolp(b bool) *bool { return &b }

// ref is a schema that refers to a named component schema.
func ref(name string) *schema { return &schema{Ref: "#/components/schemas/" + name} }

// types is the "type" keyword: one type, or a list such as
// ["string", "null"].
type types []string

func (t types) MarshalJSON() ([]byte, error) {
	if len(t) == 1 {
		return json.Marshal(t[0])
	}
	return json.Marshal([]string(t))
}

func typ(names ...string) types { return types(names) }
