//go:build tools

// Package tools pins kube-apiserver, built by scripts/setup.sh --test for the Kubernetes tests: a
// real API server (over a private etcd) that applies tiperf's manifests.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
