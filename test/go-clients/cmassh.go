package main

import (
	"context"
	"fmt"
	"time"

	"clusterform.local/goclients/gen/cmassh"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// runCmassh drives cma-ssh with the grpc-go client generated from the repository's proto, as
// cma-ssh's own Go client is: create, a duplicate create, get, the upgrade information, an unknown
// method, delete.
func runCmassh(addr string) (map[string]any, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	client := cmassh.NewClusterClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	seen := map[string]any{}

	create := &cmassh.CreateClusterMsg{
		Name:              "go-c1",
		K8SVersion:        "1.30.10",
		ControlPlaneNodes: &cmassh.ControlPlaneMachineSpec{InstanceType: "standard", Count: 1},
		WorkerNodePools:   []*cmassh.MachineSpec{{Name: "workers", InstanceType: "standard", Count: 2}},
	}
	created, err := client.CreateCluster(ctx, create)
	if err != nil {
		return nil, fmt.Errorf("CreateCluster: %w", err)
	}
	seen["createOk"] = created.GetOk()
	seen["createStatus"] = created.GetCluster().GetStatus().String()
	_, err = client.CreateCluster(ctx, create)
	seen["duplicateCode"] = status.Code(err).String()
	seen["duplicateMessage"] = status.Convert(err).Message()

	got, err := client.GetCluster(ctx, &cmassh.GetClusterMsg{Name: "go-c1"})
	if err != nil {
		return nil, fmt.Errorf("GetCluster: %w", err)
	}
	seen["getName"] = got.GetCluster().GetName()

	upgrade, err := client.GetUpgradeClusterInformation(ctx, &cmassh.GetUpgradeClusterInformationMsg{Name: "go-c1"})
	if err != nil {
		return nil, fmt.Errorf("GetUpgradeClusterInformation: %w", err)
	}
	seen["upgradeOk"] = upgrade.GetOk()
	seen["upgradeVersions"] = len(upgrade.GetVersions())

	err = conn.Invoke(ctx, "/cmassh.Cluster/NoSuchMethod", &emptypb.Empty{}, &emptypb.Empty{})
	seen["unknownMethod"] = status.Code(err).String()
	err = conn.Invoke(ctx, "/cmassh.NoSuchService/Get", &emptypb.Empty{}, &emptypb.Empty{})
	seen["unknownService"] = status.Code(err).String()
	seen["unknownServiceMessage"] = status.Convert(err).Message()

	deleted, err := client.DeleteCluster(ctx, &cmassh.DeleteClusterMsg{Name: "go-c1"})
	if err != nil {
		return nil, fmt.Errorf("DeleteCluster: %w", err)
	}
	seen["deleteStatus"] = deleted.GetStatus()
	return seen, nil
}
