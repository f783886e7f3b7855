package main

import (
	"context"
	"errors"
	"io"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

// yarpcOutbound calls procedures the way YARPC's gRPC outbound (go.uber.org/yarpc/transport/grpc,
// the transport Peloton's CLI uses) puts them on the wire: a `/<service>/<method>` path on a
// grpc-go connection, the YARPC metadata on every call (rpc-caller, rpc-service, rpc-encoding)
// and a deadline (YARPC's TTL); unary calls as grpc-go unary calls, and every streaming call
// opened as a bidirectional stream whose sending side is never half-closed after the one request
// of a server-streaming call.
//
// It is written against grpc-go directly because the Go module proxy refuses go.uber.org/yarpc on
// the machines this project builds on (403 "not available"); what is copied is the behaviour, not code.
type yarpcOutbound struct {
	conn   *grpc.ClientConn
	caller string
}

func dialYarpc(addr string) (*yarpcOutbound, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	return &yarpcOutbound{conn: conn, caller: "peloton-cli"}, nil
}

// context returns a call context with YARPC's metadata for `service` (the dispatcher name) and a TTL.
func (y *yarpcOutbound) context(service string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	ctx = metadata.AppendToOutgoingContext(ctx, "rpc-caller", y.caller, "rpc-service", service, "rpc-encoding", "proto")
	return ctx, cancel
}

// unary calls `procedure` ("/full.Service/Method") on `service`.
func (y *yarpcOutbound) unary(service, procedure string, request, response proto.Message) error {
	ctx, cancel := y.context(service)
	defer cancel()
	return y.conn.Invoke(ctx, procedure, request, response)
}

// serverStream sends one request on a stream it never half-closes and reads every reply.
func serverStream[T proto.Message](y *yarpcOutbound, service, procedure string, request proto.Message, newReply func() T) ([]T, error) {
	ctx, cancel := y.context(service)
	defer cancel()
	stream, err := y.conn.NewStream(ctx, &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}, procedure)
	if err != nil {
		return nil, err
	}
	if err := stream.SendMsg(request); err != nil {
		return nil, err
	}
	var replies []T
	for {
		reply := newReply()
		err := stream.RecvMsg(reply)
		if errors.Is(err, io.EOF) {
			return replies, nil
		}
		if err != nil {
			return replies, err
		}
		replies = append(replies, reply)
	}
}
