// Command check validates unitd's deployment files, as CI runs it:
//
//	go run ./deploy/check [-write] [REPO]
//
// The Kubernetes manifests under deploy/k8s are decoded strictly into the
// Kubernetes API's own Go types (k8s.io/api), so an unknown or misspelt
// field, a wrong type or a missing kind is an error, as a schema validator
// would report it; then the cross-references a schema cannot see are
// checked: the Service, the HorizontalPodAutoscaler and the
// PodDisruptionBudget select the Deployment's pods, probes use the admin
// port, the Service never exposes it, containers run as non-root on a
// read-only root filesystem, every UNITD_ variable is one that unitd serve
// reads, and the catalog ConfigMap holds exactly the files of catalog/data.
// The Dockerfile gets the checks of a Dockerfile linter: pinned base
// images, a non-root final user, no ADD of URLs, a static build.
//
// With -write it regenerates deploy/k8s/catalog-configmap.yaml from
// catalog/data instead of checking it.
//
// It lives in a module of its own so that the server's module does not
// depend on the Kubernetes API packages.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	write := flag.Bool("write", false, "regenerate deploy/k8s/catalog-configmap.yaml from catalog/data")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: check [-write] [REPO]\n\nValidates deploy/ of the unitd repository at REPO (default ../..).")
		flag.PrintDefaults()
	}
	flag.Parse()
	repo := "../.."
	if flag.NArg() > 0 {
		repo = flag.Arg(0)
	}
	if *write {
		path := filepath.Join(repo, "deploy", "k8s", configMapFile)
		b, err := renderConfigMap(filepath.Join(repo, "catalog", "data"))
		if err == nil {
			err = os.WriteFile(path, b, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "check:", err)
			os.Exit(1)
		}
		fmt.Println("wrote", path)
		return
	}
	problems := Check(repo)
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "FAILED: %d problems in deploy/\n", len(problems))
		os.Exit(1)
	}
	fmt.Println("SUCCESS: deploy/ is valid")
}
