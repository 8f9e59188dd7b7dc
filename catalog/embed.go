package catalog

import (
	"embed"
	"io/fs"
)

//go:embed data/*.yaml
var embedded embed.FS

// Embedded is the catalog shipped with unitd: the files of data/.
func Embedded() fs.FS {
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}
