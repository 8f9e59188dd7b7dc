module github.com/unitd/unitd

go 1.26
