package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// function is one exported function or method with a body.
type function struct {
	name     string   // as the allowlist names it: toolerr/pkg.Func, toolerr/pkg.(*T).M
	file     string   // as the profile names it: import path and file name
	from, to position // its body's braces
}

// exportedFuncs returns the exported functions, and the exported methods
// of exported types, of the packages of the module at root, but for main
// packages, test files and testdata; and those of the modules nested in
// it when nested is set, else none of theirs. Only files that the current
// build context would compile count. A function is named by its
// package's folder under root, led by the last element of root's module
// path (toolerr/middleware/toolerrgin.Middleware), so that the names of
// nested modules' packages read like the root module's.
func exportedFuncs(root string, nested bool) ([]function, error) {
	module, err := modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	return moduleFuncs(root, root, module, path.Base(module), nested)
}

// moduleFuncs returns the exported functions of the module at dir, whose
// path is module and whose packages' names lead with name, and those of
// the modules nested in it when nested is set.
func moduleFuncs(root, dir, module, name string, nested bool) ([]function, error) {
	var funcs []function
	err := filepath.WalkDir(dir, func(sub string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		base := d.Name()
		if sub != dir {
			if base == "testdata" || base == "vendor" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(sub, "go.mod")); err == nil {
				if !nested {
					return filepath.SkipDir
				}
				inner, err := modulePath(filepath.Join(sub, "go.mod"))
				if err != nil {
					return err
				}
				found, err := moduleFuncs(root, sub, inner, name, nested)
				funcs = append(funcs, found...)
				if err != nil {
					return err
				}
				return filepath.SkipDir // walked as a module of its own
			}
		}
		inModule, err := filepath.Rel(dir, sub)
		if err != nil {
			return err
		}
		inRoot, err := filepath.Rel(root, sub)
		if err != nil {
			return err
		}
		importPath := path.Join(module, filepath.ToSlash(inModule))
		found, err := packageFuncs(sub, importPath, path.Join(name, filepath.ToSlash(inRoot)))
		funcs = append(funcs, found...)
		return err
	})
	return funcs, err
}

// modulePath reads the module path of a go.mod file.
func modulePath(gomod string) (string, error) {
	f, err := os.Open(gomod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s has no module line", gomod)
}

// packageFuncs returns the exported functions of the package in dir,
// whose import path is importPath and whose names start with name.
func packageFuncs(dir, importPath, name string) ([]function, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var funcs []function
	for _, e := range entries {
		file := e.Name()
		if e.IsDir() || !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, file); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, file), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if f.Name.Name == "main" {
			return nil, nil
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !fd.Name.IsExported() {
				continue
			}
			recv := receiver(fd)
			if fd.Recv != nil && !ast.IsExported(strings.TrimLeft(recv, "(*)")) {
				continue
			}
			lb, rb := fset.Position(fd.Body.Lbrace), fset.Position(fd.Body.Rbrace)
			funcs = append(funcs, function{
				name: name + "." + recv + fd.Name.Name,
				file: importPath + "/" + file,
				from: position{lb.Line, lb.Column},
				to:   position{rb.Line, rb.Column},
			})
		}
	}
	return funcs, nil
}

// receiver returns "(T)." or "(*T)." for a method, "" for a function.
func receiver(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch g := t.(type) { // a generic type's parameters
	case *ast.IndexExpr:
		t = g.X
	case *ast.IndexListExpr:
		t = g.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return "(?)."
	}
	return "(" + star + id.Name + ")."
}
