//go:build tools

// Package tools pins the Pulumi CLI for scripts/setup.sh --test, which builds
// github.com/pulumi/pulumi/pkg/v3/cmd/pulumi from this module into .tools/bin (the CLI's own
// module has replace directives, so `go install pkg@version` cannot build it). The one replace
// below is copied from pkg/go.mod; its other one points at the sdk folder of Pulumi's repository
// and is met here by requiring the sdk module at the same version.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
