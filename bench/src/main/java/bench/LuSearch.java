package bench;

import java.util.ArrayList;
import java.util.List;

import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * lusearch: indexes JDK sources, then searches them from several threads (each its own share of a
 * fixed query list, as DaCapo's lusearch does). Results are gathered per query, so the printed
 * digest does not depend on how the threads interleave.
 */
public final class LuSearch {
    private LuSearch() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int files = Integer.parseInt(args[0]);
        int queryCount = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        try (DirectoryReader r = DirectoryReader.open(LuceneIndex.build(Sources.javaFiles(files)))) {
            List<Query> queries = queries(r, queryCount);
            String[] results = new String[queries.size()];
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                Thread w = new Thread(() -> search(new IndexSearcher(r), queries, results, first, threads), "searcher-" + t);
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            ResultDigest digest = new ResultDigest();
            for (String s : results) {
                digest.add(s);
            }
            digest.print("lusearch");
        }
        Timed.end();
    }

    /** Term, conjunction and phrase queries over every 7th term that occurs in at least 3 documents. */
    private static List<Query> queries(DirectoryReader r, int count) throws Exception {
        List<String> terms = new ArrayList<>();
        TermsEnum te = MultiTerms.getTerms(r, LuceneIndex.BODY).iterator();
        int seen = 0;
        for (BytesRef t = te.next(); t != null && terms.size() < count; t = te.next()) {
            if (te.docFreq() >= 3 && seen++ % 7 == 0) {
                terms.add(t.utf8ToString());
            }
        }
        List<Query> out = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            String a = terms.get(i);
            String b = terms.get((i * 31 + 5) % terms.size());
            switch (i % 3) {
                case 0 -> out.add(new TermQuery(new Term(LuceneIndex.BODY, a)));
                case 1 -> out.add(new BooleanQuery.Builder()
                        .add(new TermQuery(new Term(LuceneIndex.BODY, a)), BooleanClause.Occur.SHOULD)
                        .add(new TermQuery(new Term(LuceneIndex.BODY, b)), BooleanClause.Occur.SHOULD).build());
                default -> out.add(new PhraseQuery(2, LuceneIndex.BODY, a, b));
            }
        }
        return out;
    }

    private static void search(IndexSearcher s, List<Query> queries, String[] results, int first, int step) {
        try {
            for (int i = first; i < queries.size(); i += step) {
                TopDocs top = s.search(queries.get(i), 10);
                StringBuilder sb = new StringBuilder(queries.get(i) + " " + top.totalHits);
                for (ScoreDoc d : top.scoreDocs) {
                    sb.append(' ').append(s.storedFields().document(d.doc).get(LuceneIndex.PATH)).append(':').append(d.score);
                }
                results[i] = sb.toString();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
