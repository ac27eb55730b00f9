// Counts the identifiers that refer to one package-level object (PACKAGE NAME) across the
// packages of a module, type-checked with go/types in dependency order: the independent
// oracle for gopls' references in bench/README.md (section 5b).
//
//	go run bench/go_references.go MODULE_ROOT IMPORT_PATH NAME
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
)

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

func main() {
	root, target, name := os.Args[1], os.Args[2], os.Args[3]
	cmd := exec.Command("go", "list", "-json", "-deps=false", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		panic(err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	pkgs := map[string]*pkg{}
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			panic(err)
		}
		pkgs[p.ImportPath] = &p
	}
	fset := token.NewFileSet()
	std := importer.ForCompiler(fset, "source", nil)
	done := map[string]*types.Package{}
	infos := map[string]*types.Info{}
	files := map[string][]*ast.File{}
	var check func(path string) *types.Package
	imp := importerFunc(func(path string) (*types.Package, error) {
		if _, ok := pkgs[path]; ok {
			return check(path), nil
		}
		return std.Import(path)
	})
	check = func(path string) *types.Package {
		if p, ok := done[path]; ok {
			return p
		}
		p := pkgs[path]
		var fs []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, 0)
			if err != nil {
				panic(err)
			}
			fs = append(fs, af)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp}
		tp, err := conf.Check(path, fset, fs, info)
		if err != nil {
			panic(err)
		}
		done[path], infos[path], files[path] = tp, info, fs
		return tp
	}
	paths := []string{}
	for path := range pkgs {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		check(path)
	}
	obj := done[target].Scope().Lookup(name)
	count, perFile := 0, map[string]int{}
	for _, path := range paths {
		for _, m := range []map[*ast.Ident]types.Object{infos[path].Uses, infos[path].Defs} {
			for id, o := range m {
				if o == obj {
					count++
					perFile[fset.Position(id.Pos()).Filename]++
				}
			}
		}
	}
	fmt.Println(count, "sites in", len(perFile), "files")
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
