package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShippedDeploy: the shipped Dockerfile and manifests pass every check.
func TestShippedDeploy(t *testing.T) {
	for _, p := range Check("../..") {
		t.Error(p)
	}
}

// copyRepo copies what Check reads into a temporary repository.
func copyRepo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, dir := range []string{"deploy/k8s", "catalog/data", "cmd/unitd"} {
		if err := os.CopyFS(filepath.Join(dst, dir), os.DirFS(filepath.Join("../..", dir))); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "deploy", "Dockerfile"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckFinds: each kind of mistake is reported.
func TestCheckFinds(t *testing.T) {
	for _, tt := range []struct {
		name, file, old, new, want string
	}{
		{"misspelt field", "deploy/k8s/deployment.yaml", "readOnlyRootFilesystem: true", "readOnlyRootFilesytem: true", "unknown field"},
		{"writable root", "deploy/k8s/deployment.yaml", "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", "read-only"},
		{"probe on the public port", "deploy/k8s/deployment.yaml", "path: /livez\n              port: admin", "path: /livez\n              port: http", "liveness probe"},
		{"admin exposed", "deploy/k8s/service.yaml", "targetPort: http", "targetPort: admin", "exposes the admin listener"},
		{"service selects nothing", "deploy/k8s/service.yaml", "app.kubernetes.io/name: unitd\n  ports", "app.kubernetes.io/name: other\n  ports", "does not select"},
		{"hpa targets another", "deploy/k8s/hpa.yaml", "name: unitd\n  minReplicas", "name: other\n  minReplicas", "not the Deployment"},
		{"pdb blocks drains", "deploy/k8s/pdb.yaml", "minAvailable: 2", "minAvailable: 3", "leaves no pod"},
		{"unknown variable", "deploy/k8s/deployment.yaml", "name: UNITD_RATE_LIMIT", "name: UNITD_RATE_LIMITS", "reads no variable UNITD_RATE_LIMITS"},
		{"missing secret key", "deploy/k8s/secret.yaml", "redis-url:", "redis:", "do not define"},
		{"stale catalog", "catalog/data/length.yaml", "name: Length", "name: Lengths", "stale (length.yaml)"},
		{"latest image", "deploy/k8s/deployment.yaml", "image: unitd:dev", "image: unitd:latest", "not latest"},
		{"root user", "deploy/Dockerfile", "USER 65532:65532", "USER root", "non-root USER"},
		{"unpinned base", "deploy/Dockerfile", "FROM golang:1.26-bookworm AS build", "FROM golang AS build", "pin the base image"},
		{"cgo build", "deploy/Dockerfile", "CGO_ENABLED=0 ", "", "CGO_ENABLED=0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			repo := copyRepo(t)
			edit(t, filepath.Join(repo, tt.file), tt.old, tt.new)
			problems := Check(repo)
			for _, p := range problems {
				if strings.Contains(p, tt.want) {
					return
				}
			}
			t.Errorf("no problem mentions %q; got %q", tt.want, problems)
		})
	}
}

// TestConfigMapRoundTrip: the rendered ConfigMap passes the staleness
// check for the catalog it was rendered from.
func TestConfigMapRoundTrip(t *testing.T) {
	repo := copyRepo(t)
	b, err := renderConfigMap(filepath.Join(repo, "catalog", "data"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "deploy", "k8s", configMapFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range Check(repo) {
		if strings.Contains(p, "ConfigMap") || strings.Contains(p, configMapFile) {
			t.Error(p)
		}
	}
}
