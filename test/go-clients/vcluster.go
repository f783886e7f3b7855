package main

import (
	"context"
	"fmt"
	"time"

	vcluster "clusterform.local/goclients/gen/vcluster/api/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// runVcluster drives both vcluster services with the grpc-go clients generated from the
// repository's proto, as the API's example client does.
func runVcluster(addr string) (map[string]any, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	client := vcluster.NewVClusterServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	seen := map[string]any{}

	spec := &vcluster.VClusterSpec{KubernetesVersion: "1.29.0", Replicas: 1, Distro: "k3s", HelmValues: "a: 1"}
	created, err := client.CreateVCluster(ctx, &vcluster.CreateVClusterRequest{Name: "go-vc", Namespace: "team", Spec: spec})
	if err != nil {
		return nil, fmt.Errorf("CreateVCluster: %w", err)
	}
	var conditions []string
	for _, c := range created.GetVcluster().GetStatus().GetConditions() {
		conditions = append(conditions, c.GetType()+"="+c.GetStatus())
	}
	seen["createConditions"] = conditions
	seen["createOperation"] = created.GetOperationId() != ""

	watch, err := client.WatchVCluster(ctx, &vcluster.WatchVClusterRequest{Namespace: "team", Name: "go-vc"})
	if err != nil {
		return nil, fmt.Errorf("WatchVCluster: %w", err)
	}
	event, err := watch.Recv()
	if err != nil {
		return nil, fmt.Errorf("WatchVCluster first event: %w", err)
	}
	seen["watchFirst"] = event.GetType().String()

	phase := vcluster.Phase_PHASE_UNSPECIFIED
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got, err := client.GetVCluster(ctx, &vcluster.GetVClusterRequest{Name: "go-vc", Namespace: "team"})
		if err != nil {
			return nil, fmt.Errorf("GetVCluster: %w", err)
		}
		if phase = got.GetVcluster().GetStatus().GetPhase(); phase == vcluster.Phase_PHASE_RUNNING {
			break
		}
	}
	seen["phase"] = phase.String()

	// The whole spec and no mask, as a client of the reference server (which ignores masks) sends it.
	whole := &vcluster.VClusterSpec{KubernetesVersion: "1.29.0", Replicas: 1, Distro: "k3s", HelmValues: "a: 2"}
	updated, err := client.UpdateVCluster(ctx, &vcluster.UpdateVClusterRequest{Name: "go-vc", Namespace: "team", Spec: whole, Labels: map[string]string{"env": "ci"}})
	if err != nil {
		return nil, fmt.Errorf("UpdateVCluster: %w", err)
	}
	s := updated.GetVcluster().GetSpec()
	seen["updatedSpec"] = map[string]any{"kubernetesVersion": s.GetKubernetesVersion(), "distro": s.GetDistro(), "helmValues": s.GetHelmValues(), "replicas": s.GetReplicas()}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got, _ := client.GetVCluster(ctx, &vcluster.GetVClusterRequest{Name: "go-vc", Namespace: "team"})
		if got.GetVcluster().GetStatus().GetPhase() == vcluster.Phase_PHASE_RUNNING {
			break
		}
	}

	kubeconfig, err := client.GetVClusterKubeconfig(ctx, &vcluster.GetVClusterKubeconfigRequest{Name: "go-vc", Namespace: "team"})
	if err != nil {
		return nil, fmt.Errorf("GetVClusterKubeconfig: %w", err)
	}
	seen["kubeconfigExpiresAt"] = kubeconfig.GetExpiresAt().GetSeconds()

	suspended, err := client.SuspendVCluster(ctx, &vcluster.SuspendVClusterRequest{Name: "go-vc", Namespace: "team"})
	if err != nil {
		return nil, fmt.Errorf("SuspendVCluster: %w", err)
	}
	seen["suspendOperation"] = suspended.GetOperationId() != ""
	seen["suspendPhase"] = suspended.GetVcluster().GetStatus().GetPhase().String()

	snapshots, err := vcluster.NewSnapshotServiceClient(conn).ListSnapshots(ctx, &vcluster.ListSnapshotsRequest{Namespace: "team"})
	if err != nil {
		return nil, fmt.Errorf("ListSnapshots: %w", err)
	}
	seen["snapshots"] = len(snapshots.GetSnapshots())

	err = conn.Invoke(ctx, "/vcluster.api.v1.VClusterService/NoSuchMethod", &emptypb.Empty{}, &emptypb.Empty{})
	seen["unknownMethod"] = status.Code(err).String()
	if _, err := client.DeleteVCluster(ctx, &vcluster.DeleteVClusterRequest{Name: "go-vc", Namespace: "team"}); err != nil {
		return nil, fmt.Errorf("DeleteVCluster: %w", err)
	}
	return seen, nil
}
