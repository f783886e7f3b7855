// Command clusterform-go-example declares, through the generated Go SDK, the resources of
// examples/yaml: a cma-ssh cluster and node pool, a CycleCloud node pool, a Senlin profile and a
// cluster built from it, a Peloton resource pool and a stateless job in it, a vcluster and a
// snapshot of it. The native provider plugin (pulumi-resource-clusterform) serves them.
//
// The package github.com/clusterform/clusterform/sdk/go is generated from schema.json, not
// committed; go.mod points at the generated copy. How to generate it, build offline, run the
// program and change it, and why the SDK is not committed: docs/languages.md.
package main

import (
	"fmt"

	"github.com/clusterform/clusterform/sdk/go/clusterform/cmassh"
	"github.com/clusterform/clusterform/sdk/go/clusterform/cyclecloud"
	"github.com/clusterform/clusterform/sdk/go/clusterform/peloton"
	"github.com/clusterform/clusterform/sdk/go/clusterform/senlin"
	"github.com/clusterform/clusterform/sdk/go/clusterform/vcluster"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// settings are the stack's values for this program (keys, types and defaults in Pulumi.yaml).
type settings struct {
	clusterLine     string
	poolCount       int
	cyclecloudCount int
	senlinCapacity  int
	jobImage        string
	vclusterVersion string
}

// readSettings reads the stack's values. Pulumi.yaml declares each key with its type and default,
// so the CLI has refused a value of the wrong type and filled in a missing one before this runs.
func readSettings(ctx *pulumi.Context) (settings, error) {
	cfg := config.New(ctx, "")
	var failed error
	text := func(key string) string {
		v, err := cfg.Try(key)
		if err != nil && failed == nil {
			failed = fmt.Errorf("config %q: %w (Pulumi.yaml declares it with a default)", key, err)
		}
		return v
	}
	number := func(key string) int {
		v, err := cfg.TryInt(key)
		if err != nil && failed == nil {
			failed = fmt.Errorf("config %q: %w (a whole number is allowed)", key, err)
		}
		return v
	}
	s := settings{
		clusterLine:     text("clusterLine"),
		poolCount:       number("poolCount"),
		cyclecloudCount: number("cyclecloudCount"),
		senlinCapacity:  number("senlinCapacity"),
		jobImage:        text("jobImage"),
		vclusterVersion: text("vclusterVersion"),
	}
	return s, failed
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		s, err := readSettings(ctx)
		if err != nil {
			return err
		}
		// Each platform in its own function: one resource failing to register ends the program.
		for _, declare := range []func(*pulumi.Context, settings) error{cmasshResources, cyclecloudResources, senlinResources, pelotonResources, vclusterResources} {
			if err := declare(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
}

// cmasshResources: a cluster at the newest patch of the chosen line that cma-ssh offers (a lookup:
// it only reads), and a node pool on it (the pool names the cluster by its output).
func cmasshResources(ctx *pulumi.Context, s settings) error {
	offered, err := cmassh.GetVersions(ctx, &cmassh.GetVersionsArgs{Prefix: pulumi.StringRef(s.clusterLine)})
	if err != nil {
		return err
	}
	if offered.Newest == nil {
		return fmt.Errorf("cma-ssh offers no Kubernetes version in the line %q (it offers %v): set clusterLine to one of their lines", s.clusterLine, offered.Versions)
	}
	cluster, err := cmassh.NewCluster(ctx, "cluster", &cmassh.ClusterArgs{
		KubernetesVersion: pulumi.String(*offered.Newest),
		ControlPlane:      &cmassh.ControlPlaneArgs{InstanceType: pulumi.String("standard"), Count: pulumi.Int(1)},
	})
	if err != nil {
		return err
	}
	pool, err := cmassh.NewNodePool(ctx, "pool", &cmassh.NodePoolArgs{
		// The name is optional as an input (derived when absent) but always set as an output.
		ClusterName:  cluster.Name.Elem(),
		InstanceType: pulumi.String("standard"),
		Count:        pulumi.Int(s.poolCount),
	})
	if err != nil {
		return err
	}
	ctx.Export("clusterName", cluster.Name)
	ctx.Export("poolName", pool.Name)
	return nil
}

// cyclecloudResources: nodes of the `execute` node array of an existing CycleCloud cluster.
func cyclecloudResources(ctx *pulumi.Context, s settings) error {
	cc, err := cyclecloud.NewNodePool(ctx, "cc", &cyclecloud.NodePoolArgs{
		ClusterName: pulumi.String("demo"),
		Nodearray:   pulumi.String("execute"),
		Count:       pulumi.Int(s.cyclecloudCount),
	})
	if err != nil {
		return err
	}
	ctx.Export("cyclecloudNodes", cc.NodeNames)
	return nil
}

// senlinResources: a profile, and a cluster built from it (by the profile's id, an output).
func senlinResources(ctx *pulumi.Context, s settings) error {
	profile, err := senlin.NewProfile(ctx, "profile", &senlin.ProfileArgs{
		Spec: &senlin.ProfileSpecArgs{
			Type:       pulumi.String("os.nova.server"),
			Version:    pulumi.String("1.0"),
			Properties: pulumi.Map{"flavor": pulumi.String("m1.small"), "image": pulumi.String("cirros")},
		},
	})
	if err != nil {
		return err
	}
	cluster, err := senlin.NewCluster(ctx, "senlin", &senlin.ClusterArgs{
		Profile:         profile.ID().ToStringOutput(),
		MinSize:         pulumi.Int(0),
		MaxSize:         pulumi.Int(5),
		DesiredCapacity: pulumi.Int(s.senlinCapacity),
	})
	if err != nil {
		return err
	}
	ctx.Export("senlinNodes", cluster.NodeIds)
	return nil
}

// pelotonResources: a resource pool and a stateless job in it, rolled one instance at a time.
func pelotonResources(ctx *pulumi.Context, s settings) error {
	respool, err := peloton.NewResourcePool(ctx, "respool", &peloton.ResourcePoolArgs{
		Resources: peloton.ResourceArray{
			&peloton.ResourceArgs{Kind: pulumi.String("cpu"), Reservation: pulumi.Float64(4), Limit: pulumi.Float64(100)},
			&peloton.ResourceArgs{Kind: pulumi.String("memory"), Reservation: pulumi.Float64(1024), Limit: pulumi.Float64(102400)},
		},
	})
	if err != nil {
		return err
	}
	job, err := peloton.NewStatelessJob(ctx, "job", &peloton.StatelessJobArgs{
		RespoolId:     respool.ID().ToStringOutput(),
		InstanceCount: pulumi.Int(2),
		DefaultSpec: &peloton.PodSpecArgs{
			Containers: peloton.ContainerArray{&peloton.ContainerArgs{
				Name:      pulumi.String("web"),
				Image:     pulumi.String(s.jobImage),
				Resources: &peloton.ContainerResourcesArgs{Cpu: pulumi.Float64(0.5), MemoryMb: pulumi.Float64(128)},
			}},
		},
		UpdatePolicy: &peloton.UpdatePolicyArgs{BatchSize: pulumi.Int(1)},
	})
	if err != nil {
		return err
	}
	ctx.Export("jobId", job.ID())
	return nil
}

// vclusterResources: a virtual cluster and a snapshot of it (the snapshot names it by its output).
func vclusterResources(ctx *pulumi.Context, s settings) error {
	vc, err := vcluster.NewVCluster(ctx, "vc", &vcluster.VClusterArgs{
		Namespace:         pulumi.String("examples"),
		KubernetesVersion: pulumi.String(s.vclusterVersion),
	})
	if err != nil {
		return err
	}
	snap, err := vcluster.NewSnapshot(ctx, "snap", &vcluster.SnapshotArgs{
		VclusterName: vc.Name.Elem(),
		Namespace:    pulumi.String("examples"),
		Description:  pulumi.String("nightly"),
	})
	if err != nil {
		return err
	}
	ctx.Export("vclusterName", vc.Name)
	ctx.Export("snapshotId", snap.ID())
	return nil
}
