package main

import (
	"fmt"

	respoolv0 "clusterform.local/goclients/gen/peloton/api/v0/respool"
	peloton "clusterform.local/goclients/gen/peloton/api/v1alpha"
	"clusterform.local/goclients/gen/peloton/api/v1alpha/job/stateless/svc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

const (
	jobService = "/peloton.api.v1alpha.job.stateless.svc.JobService/"
	v0Respool  = "/peloton.api.respool.ResourceManager/"
	jobmgr     = "peloton-jobmgr"
	resmgr     = "peloton-resmgr"
)

// fromJSON fills a request from its proto JSON form, which keeps the nested specs readable.
func fromJSON[T proto.Message](message T, text string) T {
	if err := protojson.Unmarshal([]byte(text), message); err != nil {
		panic(fmt.Sprintf("bad request JSON %s: %v", text, err))
	}
	return message
}

// jobSpec is a stateless job of `instances` one-core pods in pool `pool`.
func jobSpec(pool string, instances int) string {
	return fmt.Sprintf(`{"name": "go-web", "owner": "go", "respoolId": {"value": %q}, "instanceCount": %d,
		"defaultSpec": {"containers": [{"name": "web", "resource": {"cpuLimit": 1, "memLimitMb": 128},
		"container": {"type": "DOCKER", "docker": {"image": "nginx:1.25"}}, "command": {"value": "serve"}}]}}`, pool, instances)
}

// runPeloton manages pools through the v0 ResourceManager, runs a job in one, lists jobs and pods
// by stream, reads the job's workflows by upstream's method name, and calls an unknown procedure.
func runPeloton(addr string) (map[string]any, error) {
	y, err := dialYarpc(addr)
	if err != nil {
		return nil, err
	}
	defer y.conn.Close()
	seen := map[string]any{}

	config := `{"name": "go-pool", "parent": {"value": "root"}, "policy": "PriorityFIFO",
		"resources": [{"kind": "cpu", "reservation": 4, "limit": 8, "share": 1}, {"kind": "memory", "reservation": 1024, "limit": 2048, "share": 1}]}`
	created := &respoolv0.CreateResponse{}
	if err := y.unary(resmgr, v0Respool+"CreateResourcePool", fromJSON(&respoolv0.CreateRequest{}, `{"config": `+config+`}`), created); err != nil {
		return nil, fmt.Errorf("v0 CreateResourcePool: %w", err)
	}
	if created.GetError() != nil {
		return nil, fmt.Errorf("v0 CreateResourcePool answered error %v", created.GetError())
	}
	poolID := created.GetResult().GetValue()
	seen["poolId"] = poolID

	again := &respoolv0.CreateResponse{}
	if err := y.unary(resmgr, v0Respool+"CreateResourcePool", fromJSON(&respoolv0.CreateRequest{}, `{"config": `+config+`}`), again); err != nil {
		return nil, fmt.Errorf("second v0 CreateResourcePool: %w", err)
	}
	seen["duplicatePoolError"] = again.GetError().GetAlreadyExists().GetMessage()

	looked := &respoolv0.LookupResponse{}
	if err := y.unary(resmgr, v0Respool+"LookupResourcePoolID", &respoolv0.LookupRequest{Path: &respoolv0.ResourcePoolPath{Value: "/go-pool"}}, looked); err != nil {
		return nil, fmt.Errorf("v0 LookupResourcePoolID: %w", err)
	}
	seen["lookedUp"] = looked.GetId().GetValue()

	updated := &respoolv0.UpdateResponse{}
	update := fromJSON(&respoolv0.UpdateRequest{}, `{"config": `+config+`}`)
	update.Id = &respoolv0.ResourcePoolID{Value: poolID}
	update.Config.Description = "from the Go client"
	if err := y.unary(resmgr, v0Respool+"UpdateResourcePool", update, updated); err != nil || updated.GetError() != nil {
		return nil, fmt.Errorf("v0 UpdateResourcePool: %v %v", err, updated.GetError())
	}
	got := &respoolv0.GetResponse{}
	if err := y.unary(resmgr, v0Respool+"GetResourcePool", &respoolv0.GetRequest{Id: &respoolv0.ResourcePoolID{Value: poolID}}, got); err != nil {
		return nil, fmt.Errorf("v0 GetResourcePool: %w", err)
	}
	seen["poolDescription"] = got.GetPoolinfo().GetConfig().GetDescription()
	seen["poolPath"] = got.GetPoolinfo().GetPath().GetValue()

	job := &svc.CreateJobResponse{}
	if err := y.unary(jobmgr, jobService+"CreateJob", fromJSON(&svc.CreateJobRequest{}, `{"spec": `+jobSpec(poolID, 2)+`}`), job); err != nil {
		return nil, fmt.Errorf("CreateJob: %w", err)
	}
	seen["jobId"] = job.GetJobId().GetValue()
	replace := fromJSON(&svc.ReplaceJobRequest{}, `{"spec": `+jobSpec(poolID, 3)+`}`)
	replace.JobId, replace.Version = job.GetJobId(), job.GetVersion()
	if err := y.unary(jobmgr, jobService+"ReplaceJob", replace, &svc.ReplaceJobResponse{}); err != nil {
		return nil, fmt.Errorf("ReplaceJob: %w", err)
	}

	jobs, err := serverStream(y, jobmgr, jobService+"ListJobs", &svc.ListJobsRequest{}, func() *svc.ListJobsResponse { return &svc.ListJobsResponse{} })
	if err != nil {
		return nil, fmt.Errorf("ListJobs stream: %w", err)
	}
	var names []string
	for _, reply := range jobs {
		for _, j := range reply.GetJobs() {
			names = append(names, j.GetName())
		}
	}
	seen["listJobs"] = names

	pods, err := serverStream(y, jobmgr, jobService+"ListPods", &svc.ListPodsRequest{JobId: job.GetJobId()}, func() *svc.ListPodsResponse { return &svc.ListPodsResponse{} })
	if err != nil {
		return nil, fmt.Errorf("ListPods stream: %w", err)
	}
	podCount := 0
	for _, reply := range pods {
		podCount += len(reply.GetPods())
	}
	seen["listPods"] = podCount

	workflows := &svc.ListJobWorkflowsResponse{}
	if err := y.unary(jobmgr, jobService+"ListJobWorkflows", &svc.ListJobWorkflowsRequest{JobId: &peloton.JobID{Value: job.GetJobId().GetValue()}}, workflows); err != nil {
		return nil, fmt.Errorf("ListJobWorkflows: %w", err)
	}
	seen["workflows"] = len(workflows.GetWorkflowInfos())

	err = y.unary(jobmgr, jobService+"NoSuchMethod", &svc.ListJobsRequest{}, &svc.ListJobsResponse{})
	seen["unknownMethod"] = status.Code(err).String()

	// A second, empty pool made through v0 is deleted by path through v0.
	leaf := &respoolv0.CreateResponse{}
	if err := y.unary(resmgr, v0Respool+"CreateResourcePool", fromJSON(&respoolv0.CreateRequest{}, `{"config": {"name": "go-empty", "parent": {"value": "root"}}}`), leaf); err != nil || leaf.GetError() != nil {
		return nil, fmt.Errorf("v0 CreateResourcePool go-empty: %v %v", err, leaf.GetError())
	}
	deleted := &respoolv0.DeleteResponse{}
	if err := y.unary(resmgr, v0Respool+"DeleteResourcePool", &respoolv0.DeleteRequest{Path: &respoolv0.ResourcePoolPath{Value: "/go-empty"}}, deleted); err != nil {
		return nil, fmt.Errorf("v0 DeleteResourcePool: %w", err)
	}
	seen["deleteError"] = deleted.GetError() != nil
	query := &respoolv0.QueryResponse{}
	if err := y.unary(resmgr, v0Respool+"Query", &respoolv0.QueryRequest{}, query); err != nil {
		return nil, fmt.Errorf("v0 Query: %w", err)
	}
	var paths []string
	for _, pool := range query.GetResourcePools() {
		paths = append(paths, pool.GetPath().GetValue())
	}
	seen["poolPaths"] = paths
	return seen, nil
}
