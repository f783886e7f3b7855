module github.com/clusterform/clusterform/tools/gomodzip

go 1.25.0

require golang.org/x/mod v0.38.0
