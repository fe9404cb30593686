package extract

// Data-bound content controls: a control whose w:dataBinding names a node of a custom XML part
// shows that node's text, which Word (and LibreOffice) put in place of the text the control holds
// in document.xml when the file is opened. The held text can be anything: a file whose controls
// held the student's own words and were bound to copied paragraphs read as the student's words.

import (
	"encoding/xml"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Item IDs Word gives the document's properties, which controls bind to (a cover page's title,
// author).
const (
	coreStoreID     = "{6C3C8BC8-F283-45AE-878A-BAB7291924A1}"
	extendedStoreID = "{6668398D-A668-4E3E-A5EB-62B293D839F1}"
)

// docxStores finds the XML a binding names, reading each part once, when the first binding asks.
type docxStores struct {
	pkg   *docxPackage
	parts map[string]string // item ID, upper case → part name
	trees map[string]*xmlNode
}

func newDocxStores(pkg *docxPackage) *docxStores { return &docxStores{pkg: pkg} }

func (s *docxStores) index() {
	s.parts, s.trees = map[string]string{}, map[string]*xmlNode{}
	for name, f := range s.pkg.parts {
		dir, file := path.Split(name)
		if dir != "customxml/" || !strings.HasPrefix(file, "item") || strings.HasPrefix(file, "itemprops") || !strings.HasSuffix(file, ".xml") {
			continue
		}
		props := s.pkg.target(s.pkg.rels(f.Name), "customXmlProps", f.Name, "")
		var id string
		eachStart(newXMLDecoder(s.pkg.readOptional(props)), func(se xml.StartElement) {
			if se.Name.Local == "datastoreItem" && id == "" {
				id = attr(se, "itemID")
			}
		})
		if id != "" {
			s.parts[strings.ToUpper(id)] = f.Name
		}
	}
	for id, name := range map[string]string{coreStoreID: "docProps/core.xml", extendedStoreID: "docProps/app.xml"} {
		if _, ok := s.parts[id]; !ok {
			s.parts[id] = name
		}
	}
}

// value is the text of the node a binding names, and whether it names one this reader can find
// (XPath of child steps by name and position, and a last attribute or text() step).
func (s *docxStores) value(storeID, xpath, prefixes string) (string, bool) {
	if s == nil {
		return "", false
	}
	if s.parts == nil {
		s.index()
	}
	id := strings.ToUpper(strings.TrimSpace(storeID))
	root, ok := s.trees[id]
	if !ok {
		if name, found := s.parts[id]; found {
			root = parseXMLTree(s.pkg.readOptional(name))
		}
		s.trees[id] = root
	}
	if root == nil {
		return "", false
	}
	ns := map[string]string{}
	for _, m := range xmlnsRE.FindAllStringSubmatch(prefixes, -1) { // declarations, as in a part
		ns[m[1]] = m[2]
	}
	return root.find(xpath, ns)
}

var xpathStepRE = regexp.MustCompile(`^(@)?(?:([\w.-]+):)?([\w.-]+)(?:\[(\d+)\])?$`)

// xmlNode is an element of a custom XML part: its name, attributes, children, and its string
// value (all the text in it, in order).
type xmlNode struct {
	name       xml.Name
	attrs      []xml.Attr
	children   []*xmlNode
	text       *[]byte // the part's text, all of it, in order
	start, end int     // this node's string value in text
	// The children by name and by local name, made on a first step through the node: a file of
	// many bindings into a part of many elements would otherwise scan them for each.
	byName  map[xml.Name][]*xmlNode
	byLocal map[string][]*xmlNode
}

// child is the n-th (from 1) child named local, in namespace space, or in any when anyNS.
func (n *xmlNode) child(space, local string, anyNS bool, nth int) *xmlNode {
	if n.byName == nil {
		n.byName, n.byLocal = map[xml.Name][]*xmlNode{}, map[string][]*xmlNode{}
		for _, c := range n.children {
			n.byName[c.name] = append(n.byName[c.name], c)
			n.byLocal[c.name.Local] = append(n.byLocal[c.name.Local], c)
		}
	}
	list := n.byName[xml.Name{Space: space, Local: local}]
	if anyNS {
		list = n.byLocal[local]
	}
	if nth < 1 || nth > len(list) {
		return nil
	}
	return list[nth-1]
}

// maxXMLNodes bounds the elements of one custom XML part read.
const maxXMLNodes = 1 << 16

// parseXMLTree reads XML into a document node whose one child is the root element; nil when it
// cannot.
func parseXMLTree(raw []byte) *xmlNode {
	if len(raw) == 0 {
		return nil
	}
	text := new([]byte)
	doc := &xmlNode{text: text}
	open := []*xmlNode{doc}
	d := newXMLDecoder(raw)
	for n := 0; n < maxXMLNodes; {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n++
			e := &xmlNode{name: t.Name, attrs: t.Attr, text: text, start: len(*text), end: -1}
			parent := open[len(open)-1]
			parent.children = append(parent.children, e)
			open = append(open, e)
		case xml.EndElement:
			if len(open) > 1 {
				open[len(open)-1].end = len(*text)
				open = open[:len(open)-1]
			}
		case xml.CharData:
			*text = append(*text, t...)
		}
	}
	for _, e := range open[1:] { // not closed: to the end
		e.end = len(*text)
	}
	if len(doc.children) == 0 {
		return nil
	}
	return doc
}

// find follows an absolute XPath of the form Word writes (/ns0:root[1]/ns0:field[1], /@attr,
// text()) from the document node.
func (n *xmlNode) find(xpath string, ns map[string]string) (string, bool) {
	steps := strings.Split(strings.TrimPrefix(strings.TrimSpace(xpath), "/"), "/")
	cur := n
	for i, step := range steps {
		if step == "text()" && i == len(steps)-1 {
			break
		}
		m := xpathStepRE.FindStringSubmatch(step)
		if m == nil {
			return "", false
		}
		space := ""
		if m[2] != "" {
			if space = ns[m[2]]; space == "" {
				return "", false
			}
		}
		if m[1] == "@" {
			if i != len(steps)-1 {
				return "", false
			}
			for _, a := range cur.attrs {
				if a.Name.Local == m[3] && a.Name.Space == space {
					return a.Value, true
				}
			}
			return "", false
		}
		nth := 1
		if m[4] != "" {
			nth, _ = strconv.Atoi(m[4])
		}
		if cur = cur.child(space, m[3], m[2] == "", nth); cur == nil {
			return "", false
		}
	}
	if cur == n {
		return "", false
	}
	return string((*cur.text)[cur.start:cur.end]), true
}
