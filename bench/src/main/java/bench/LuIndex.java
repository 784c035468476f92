package bench;

import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;

/** luindex: indexes the first N JDK source files with Lucene, then digests the index's term dictionary. */
public final class LuIndex {
    private LuIndex() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int files = Integer.parseInt(args[0]);
        Directory dir = LuceneIndex.build(Sources.javaFiles(files));
        ResultDigest digest = new ResultDigest();
        try (DirectoryReader r = DirectoryReader.open(dir)) {
            digest.add(r.numDocs());
            Terms terms = MultiTerms.getTerms(r, LuceneIndex.BODY);
            TermsEnum te = terms.iterator();
            for (BytesRef t = te.next(); t != null; t = te.next()) {
                digest.add(t.utf8ToString()).add(te.docFreq()).add(te.totalTermFreq());
            }
        }
        digest.print("luindex");
        Timed.end();
    }
}
