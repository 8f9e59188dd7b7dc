package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"
)

const configMapFile = "catalog-configmap.yaml"

// manifests are the decoded objects of deploy/k8s.
type manifests struct {
	deployments []*appsv1.Deployment
	services    []*corev1.Service
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	pdbs        []*policyv1.PodDisruptionBudget
	configMaps  []*corev1.ConfigMap
	secrets     []*corev1.Secret
}

// Check validates deploy/ of the repository at repo and returns one line
// per problem.
func Check(repo string) []string {
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	dir := filepath.Join(repo, "deploy", "k8s")
	m := decodeAll(dir, report)
	checkKustomization(dir, report)
	checkWorkload(repo, m, report)
	checkConfigMap(repo, m, report)
	checkDockerfile(filepath.Join(repo, "deploy", "Dockerfile"), report)
	return problems
}

// decodeAll decodes every manifest strictly into its API type.
func decodeAll(dir string, report func(string, ...any)) *manifests {
	m := &manifests{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) == 0 {
		report("%s: no manifests", dir)
	}
	for _, f := range files {
		if filepath.Base(f) == "kustomization.yaml" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			report("%v", err)
			continue
		}
		for i, doc := range splitDocuments(b) {
			where := fmt.Sprintf("%s (document %d)", filepath.Base(f), i+1)
			var tm metav1.TypeMeta
			if err := yaml.Unmarshal(doc, &tm); err != nil {
				report("%s: %v", where, err)
				continue
			}
			var obj any
			switch tm.APIVersion + "/" + tm.Kind {
			case "apps/v1/Deployment":
				o := &appsv1.Deployment{}
				m.deployments, obj = append(m.deployments, o), o
			case "v1/Service":
				o := &corev1.Service{}
				m.services, obj = append(m.services, o), o
			case "autoscaling/v2/HorizontalPodAutoscaler":
				o := &autoscalingv2.HorizontalPodAutoscaler{}
				m.hpas, obj = append(m.hpas, o), o
			case "policy/v1/PodDisruptionBudget":
				o := &policyv1.PodDisruptionBudget{}
				m.pdbs, obj = append(m.pdbs, o), o
			case "v1/ConfigMap":
				o := &corev1.ConfigMap{}
				m.configMaps, obj = append(m.configMaps, o), o
			case "v1/Secret":
				o := &corev1.Secret{}
				m.secrets, obj = append(m.secrets, o), o
			default:
				report("%s: unexpected kind %q of apiVersion %q", where, tm.Kind, tm.APIVersion)
				continue
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				report("%s: %v", where, err)
			}
		}
	}
	return m
}

func splitDocuments(b []byte) [][]byte {
	var docs [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(b), -1) {
		if strings.TrimSpace(stripComments(d)) != "" {
			docs = append(docs, []byte(d))
		}
	}
	return docs
}

func stripComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// checkKustomization: every manifest is listed, every listed file exists.
func checkKustomization(dir string, report func(string, ...any)) {
	var k struct {
		APIVersion string   `json:"apiVersion"`
		Kind       string   `json:"kind"`
		Resources  []string `json:"resources"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		report("%v", err)
		return
	}
	if err := yaml.UnmarshalStrict(b, &k); err != nil {
		report("kustomization.yaml: %v", err)
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	for _, f := range files {
		if base := filepath.Base(f); base != "kustomization.yaml" && !slices.Contains(k.Resources, base) {
			report("kustomization.yaml: %s is not listed in resources", base)
		}
	}
	for _, r := range k.Resources {
		if _, err := os.Stat(filepath.Join(dir, r)); err != nil {
			report("kustomization.yaml: resource %s: %v", r, err)
		}
	}
}

// serveVariables returns the UNITD_ environment variables that unitd
// serve reads, from its source.
func serveVariables(repo string) map[string]bool {
	vars := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(repo, "cmd", "unitd", "*.go"))
	re := regexp.MustCompile(`"(UNITD_[A-Z0-9_]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, _ := os.ReadFile(f)
		for _, m := range re.FindAllSubmatch(b, -1) {
			vars[string(m[1])] = true
		}
	}
	return vars
}

func checkWorkload(repo string, m *manifests, report func(string, ...any)) {
	if len(m.deployments) != 1 {
		report("want exactly one Deployment, have %d", len(m.deployments))
		return
	}
	d := m.deployments[0]
	pod := labels.Set(d.Spec.Template.Labels)
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil || d.Spec.Selector == nil || !sel.Matches(pod) {
		report("Deployment %s: its selector does not match its pod template's labels", d.Name)
	}
	ps := d.Spec.Template.Spec
	podNonRoot := ps.SecurityContext != nil && ps.SecurityContext.RunAsNonRoot != nil && *ps.SecurityContext.RunAsNonRoot
	vars := serveVariables(repo)
	secrets := map[string]map[string]bool{}
	for _, s := range m.secrets {
		keys := map[string]bool{}
		for k := range s.StringData {
			keys[k] = true
		}
		for k := range s.Data {
			keys[k] = true
		}
		secrets[s.Name] = keys
	}
	configMaps := map[string]bool{}
	for _, c := range m.configMaps {
		configMaps[c.Name] = true
	}
	if len(ps.Containers) == 0 {
		report("Deployment %s: no containers", d.Name)
	}
	adminPort := int32(0)
	for _, c := range ps.Containers {
		where := fmt.Sprintf("Deployment %s, container %s", d.Name, c.Name)
		sc := c.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			report("%s: the root filesystem must be read-only", where)
		}
		if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			report("%s: allowPrivilegeEscalation must be false", where)
		}
		if !podNonRoot && (sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot) {
			report("%s: must run as non-root", where)
		}
		if strings.HasSuffix(c.Image, ":latest") || !strings.Contains(c.Image, ":") {
			report("%s: image %q must name a version, not latest", where, c.Image)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
			report("%s: set a CPU request and a memory limit", where)
		}
		ports := map[string]int32{}
		for _, p := range c.Ports {
			ports[p.Name] = p.ContainerPort
		}
		adminPort = ports["admin"]
		if adminPort == 0 || ports["http"] == 0 {
			report("%s: needs ports named http and admin", where)
		}
		for _, pr := range []struct {
			name  string
			probe *corev1.Probe
			path  string
		}{{"liveness", c.LivenessProbe, "/livez"}, {"readiness", c.ReadinessProbe, "/readyz"}} {
			if pr.probe == nil || pr.probe.HTTPGet == nil {
				report("%s: needs an HTTP %s probe", where, pr.name)
				continue
			}
			g := pr.probe.HTTPGet
			if g.Path != pr.path || (g.Port.StrVal != "admin" && g.Port.IntVal != adminPort) {
				report("%s: the %s probe must be GET %s on the admin port, not %s on %s", where, pr.name, pr.path, g.Path, g.Port.String())
			}
		}
		for _, e := range c.Env {
			if strings.HasPrefix(e.Name, "UNITD_") && !vars[e.Name] {
				report("%s: unitd serve reads no variable %s", where, e.Name)
			}
			if e.Name == "UNITD_ADMIN_ADDR" && !strings.HasSuffix(e.Value, fmt.Sprintf(":%d", adminPort)) {
				report("%s: UNITD_ADMIN_ADDR %q is not the admin port %d", where, e.Value, adminPort)
			}
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				ref := e.ValueFrom.SecretKeyRef
				if keys, ok := secrets[ref.Name]; !ok || !keys[ref.Key] {
					report("%s: %s refers to key %s of Secret %s, which the manifests do not define", where, e.Name, ref.Key, ref.Name)
				}
			}
		}
	}
	for _, v := range ps.Volumes {
		if v.ConfigMap != nil && !configMaps[v.ConfigMap.Name] {
			report("Deployment %s: volume %s mounts ConfigMap %s, which the manifests do not define", d.Name, v.Name, v.ConfigMap.Name)
		}
	}

	for _, s := range m.services {
		if len(s.Spec.Selector) == 0 || !labels.SelectorFromSet(s.Spec.Selector).Matches(pod) {
			report("Service %s: its selector does not select the Deployment's pods", s.Name)
		}
		for _, p := range s.Spec.Ports {
			if p.TargetPort.StrVal == "admin" || (adminPort != 0 && p.TargetPort.IntVal == adminPort) {
				report("Service %s: port %s exposes the admin listener", s.Name, p.Name)
			}
		}
	}
	minReplicas := int32(1)
	if d.Spec.Replicas != nil {
		minReplicas = *d.Spec.Replicas
	}
	if len(m.hpas) != 1 {
		report("want one HorizontalPodAutoscaler, have %d", len(m.hpas))
	}
	for _, h := range m.hpas {
		ref := h.Spec.ScaleTargetRef
		if ref.Kind != "Deployment" || ref.Name != d.Name || ref.APIVersion != "apps/v1" {
			report("HorizontalPodAutoscaler %s: scales %s %s, not the Deployment %s", h.Name, ref.Kind, ref.Name, d.Name)
		}
		if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas > h.Spec.MaxReplicas {
			report("HorizontalPodAutoscaler %s: minReplicas must be set and at most maxReplicas", h.Name)
		} else {
			minReplicas = *h.Spec.MinReplicas
		}
	}
	if len(m.pdbs) != 1 {
		report("want one PodDisruptionBudget, have %d", len(m.pdbs))
	}
	for _, p := range m.pdbs {
		sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
		if err != nil || p.Spec.Selector == nil || !sel.Matches(pod) {
			report("PodDisruptionBudget %s: its selector does not select the Deployment's pods", p.Name)
		}
		if p.Spec.MinAvailable != nil && p.Spec.MinAvailable.IntVal >= minReplicas {
			report("PodDisruptionBudget %s: minAvailable %d leaves no pod to disrupt at %d replicas", p.Name, p.Spec.MinAvailable.IntVal, minReplicas)
		}
	}
}

// catalogFiles reads the catalog's YAML files by name.
func catalogFiles(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out[filepath.Base(f)] = string(b)
	}
	return out, nil
}

// checkConfigMap: the unitd-catalog ConfigMap holds catalog/data exactly.
func checkConfigMap(repo string, m *manifests, report func(string, ...any)) {
	want, err := catalogFiles(filepath.Join(repo, "catalog", "data"))
	if err != nil {
		report("%v", err)
		return
	}
	for _, c := range m.configMaps {
		if c.Name != "unitd-catalog" {
			continue
		}
		var stale []string
		for name, content := range want {
			if c.Data[name] != content {
				stale = append(stale, name)
			}
		}
		for name := range c.Data {
			if _, ok := want[name]; !ok {
				stale = append(stale, name)
			}
		}
		sort.Strings(stale)
		if len(stale) > 0 {
			report("%s is stale (%s); regenerate it with: make deploy-manifests", configMapFile, strings.Join(stale, ", "))
		}
		return
	}
	report("no ConfigMap unitd-catalog in deploy/k8s")
}

// renderConfigMap returns the unitd-catalog ConfigMap of the catalog in
// dir.
func renderConfigMap(dir string) ([]byte, error) {
	files, err := catalogFiles(dir)
	if err != nil {
		return nil, err
	}
	cm := corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: "unitd-catalog", Labels: map[string]string{"app.kubernetes.io/name": "unitd"}},
		Data:       files,
	}
	b, err := yaml.Marshal(cm)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteString("# The catalog unitd serves, mounted at /etc/unitd/catalog. Generated from\n")
	out.WriteString("# catalog/data by `make deploy-manifests`; CI fails when it is stale. Edit\n")
	out.WriteString("# the ConfigMap in the cluster and every replica hot-reloads the change.\n")
	out.Write(bytes.Replace(b, []byte("  creationTimestamp: null\n"), nil, 1))
	return out.Bytes(), nil
}

// checkDockerfile applies the checks of a Dockerfile linter.
func checkDockerfile(path string, report func(string, ...any)) {
	b, err := os.ReadFile(path)
	if err != nil {
		report("%v", err)
		return
	}
	var froms []string
	user := ""
	static := false
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch strings.ToUpper(f[0]) {
		case "FROM":
			if len(f) < 2 {
				report("Dockerfile:%d: FROM without an image", i+1)
				continue
			}
			img := f[1]
			froms = append(froms, img)
			user = ""
			if img != "scratch" && (!strings.Contains(img, ":") && !strings.Contains(img, "@sha256:") || strings.HasSuffix(img, ":latest")) {
				report("Dockerfile:%d: pin the base image %s to a version", i+1, img)
			}
		case "USER":
			if len(f) > 1 {
				user = f[1]
			}
		case "ADD":
			if strings.Contains(line, "http://") || strings.Contains(line, "https://") {
				report("Dockerfile:%d: ADD of a URL; download in a build stage with a checksum instead", i+1)
			}
		case "RUN":
			if strings.Contains(line, "CGO_ENABLED=0") {
				static = true
			}
			if strings.Contains(line, "apt-get install") && !strings.Contains(line, "--no-install-recommends") {
				report("Dockerfile:%d: apt-get install without --no-install-recommends", i+1)
			}
		}
	}
	if len(froms) < 2 {
		report("Dockerfile: want a multi-stage build (a build stage and a runtime stage)")
	}
	if len(froms) > 0 {
		last := froms[len(froms)-1]
		if last != "scratch" && !strings.HasPrefix(last, "gcr.io/distroless/") {
			report("Dockerfile: the runtime stage %s should be distroless or scratch", last)
		}
	}
	if u := strings.SplitN(user, ":", 2)[0]; u == "" || u == "root" || u == "0" {
		report("Dockerfile: the runtime stage must set a non-root USER")
	}
	if !static {
		report("Dockerfile: build the binary with CGO_ENABLED=0 so that it is static")
	}
}
