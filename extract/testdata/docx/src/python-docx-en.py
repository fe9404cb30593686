import docx, copy
from docx.oxml.ns import qn
from docx.oxml import parse_xml
W='xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
d=docx.Document()
d.add_paragraph('Detecting Copied Passages in Theses', style='Title')
d.add_paragraph('A thesis submitted for the degree of Master of Science')
d.add_paragraph('Declaration: I hereby declare that this thesis is my own work and that it has not been submitted for any other degree.')
d.add_heading('Abstract', level=1)
d.add_paragraph('This thesis studies how copied passages can be found quickly in a large library of earlier theses and papers.')
d.add_paragraph('Keywords: plagiarism detection; fingerprints; alignment')
d.add_heading('1 Introduction', level=1)
p=d.add_paragraph('Plagiarism detection systems compare a submission with a reference library.')
# tracked deletion and insertion, hidden run
p._p.append(parse_xml('<w:del %s w:id="1" w:author="x" w:date="2024-01-01T00:00:00Z"><w:r><w:delText> DELETED TEXT</w:delText></w:r></w:del>'%W))
p._p.append(parse_xml('<w:ins %s w:id="2" w:author="x" w:date="2024-01-01T00:00:00Z"><w:r><w:t xml:space="preserve"> Inserted text stays.</w:t></w:r></w:ins>'%W))
r=p.add_run(' HIDDEN WORDS'); r.font.hidden=True
d.add_heading('1.1 Background', level=2)
q=d.add_paragraph('As Smith (2019) argues, "fingerprinting alone cannot locate the copied spans inside a paragraph" and alignment is needed.')
d.add_heading('References', level=1)
d.add_paragraph('[1] A. Broder. On the resemblance and containment of documents. 1997.')
d.add_heading('Appendix A Source Code', level=1)
d.add_paragraph('The source code is available from the author.')
d.save('python-docx-en.docx')
