package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"golang.org/x/net/http2"
)

// runRaw calls procedures the plane does not serve over a bare prior-knowledge HTTP/2 connection
// and reports the HTTP status, content type and gRPC status exactly as they arrive, with no gRPC
// library in between to interpret them.
func runRaw(addr string) (map[string]any, error) {
	transport := &http2.Transport{
		AllowHTTP: true,
		DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}
	client := &http.Client{Transport: transport, Timeout: 5 * time.Second}
	seen := map[string]any{}
	for key, path := range map[string]string{"unknownMethod": "/cmassh.Cluster/NoSuchMethod", "unknownService": "/no.such.Service/Get"} {
		request, err := http.NewRequest(http.MethodPost, "http://"+addr+path, bytes.NewReader([]byte{0, 0, 0, 0, 0}))
		if err != nil {
			return nil, err
		}
		request.Header.Set("content-type", "application/grpc")
		request.Header.Set("te", "trailers")
		response, err := client.Do(request)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(response.Body)
		response.Body.Close()
		if err != nil {
			return nil, err
		}
		// A trailers-only answer carries grpc-status in its only HEADERS frame.
		grpcStatus := response.Header.Get("grpc-status")
		if grpcStatus == "" {
			grpcStatus = response.Trailer.Get("grpc-status")
		}
		message, _ := url.PathUnescape(response.Header.Get("grpc-message") + response.Trailer.Get("grpc-message"))
		seen[key] = map[string]any{
			"httpStatus":  response.StatusCode,
			"contentType": response.Header.Get("content-type"),
			"grpcStatus":  grpcStatus,
			"grpcMessage": message,
			"bodyBytes":   len(body),
		}
	}
	return seen, nil
}
