module clusterform.local/goclients

go 1.24

require (
	golang.org/x/net v0.62.0
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

tool (
	google.golang.org/grpc/cmd/protoc-gen-go-grpc
	google.golang.org/protobuf/cmd/protoc-gen-go
)

require google.golang.org/grpc/cmd/protoc-gen-go-grpc v1.6.2
