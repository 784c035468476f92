package bench;

import java.io.IOException;
import java.util.Map;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;

/**
 * Indexes texts into an in-memory Lucene index, the shared first step of luindex and lusearch.
 * Merges run on the indexing thread (a concurrent merge scheduler would add merge threads whose
 * timing changes the segment layout, hence the results, from run to run).
 */
final class LuceneIndex {
    static final String BODY = "body";
    static final String PATH = "path";

    private LuceneIndex() {
    }

    static Directory build(Map<String, String> texts) throws IOException {
        Directory dir = new ByteBuffersDirectory();
        IndexWriterConfig cfg = new IndexWriterConfig(new StandardAnalyzer())
                .setMergeScheduler(new SerialMergeScheduler())
                .setRAMBufferSizeMB(16);
        try (IndexWriter w = new IndexWriter(dir, cfg)) {
            for (Map.Entry<String, String> e : texts.entrySet()) {
                Document d = new Document();
                d.add(new StringField(PATH, e.getKey(), Field.Store.YES));
                d.add(new TextField(BODY, e.getValue(), Field.Store.NO));
                w.addDocument(d);
            }
            w.forceMerge(1);
            w.commit();
        }
        return dir;
    }
}
