package bench;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.StringReader;
import java.util.Date;

import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.sax.SAXResult;
import javax.xml.transform.stream.StreamSource;

import org.apache.fop.apps.FOUserAgent;
import org.apache.fop.apps.FopFactory;
import org.apache.fop.apps.MimeConstants;

/**
 * fop: lays out a generated XSL-FO document (headings, paragraphs, a table) and renders it to PDF
 * in memory. The creation date is fixed, so equal runs give equal PDFs.
 */
public final class Fop {
    private Fop() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int sections = Integer.parseInt(args[0]);
        FopFactory factory = FopFactory.newInstance(new File(".").toURI());
        FOUserAgent agent = factory.newFOUserAgent();
        agent.setCreationDate(new Date(0));
        agent.setProducer("reprise bench");
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        org.apache.fop.apps.Fop fop = factory.newFop(MimeConstants.MIME_PDF, agent, pdf);
        Transformer identity = TransformerFactory.newDefaultInstance().newTransformer();
        identity.transform(new StreamSource(new StringReader(document(sections))), new SAXResult(fop.getDefaultHandler()));
        ResultDigest digest = new ResultDigest();
        digest.add(fop.getResults().getPageCount()).add(pdf.size());
        digest.print("fop");
        Timed.end();
    }

    private static String document(int sections) {
        StringBuilder b = new StringBuilder("""
            <?xml version="1.0" encoding="UTF-8"?>
            <fo:root xmlns:fo="http://www.w3.org/1999/XSL/Format">
              <fo:layout-master-set>
                <fo:simple-page-master master-name="page" page-height="29.7cm" page-width="21cm" margin="2cm">
                  <fo:region-body margin-bottom="1cm"/><fo:region-after extent="0.8cm"/>
                </fo:simple-page-master>
              </fo:layout-master-set>
              <fo:page-sequence master-reference="page">
                <fo:static-content flow-name="xsl-region-after">
                  <fo:block text-align="center" font-size="9pt">Page <fo:page-number/></fo:block>
                </fo:static-content>
                <fo:flow flow-name="xsl-region-body">
            """);
        for (int s = 0; s < sections; s++) {
            b.append("<fo:block font-size=\"16pt\" font-weight=\"bold\" space-before=\"12pt\">Section ").append(s + 1).append("</fo:block>\n");
            for (int p = 0; p < 3; p++) {
                b.append("<fo:block text-align=\"justify\" space-before=\"6pt\" hyphenate=\"false\">");
                for (int w = 0; w < 60; w++) {
                    b.append(WORDS[(s * 31 + p * 7 + w * 13) % WORDS.length]).append(w % 11 == 10 ? ". " : " ");
                }
                b.append("</fo:block>\n");
            }
            b.append("<fo:table table-layout=\"fixed\" width=\"100%\" border=\"0.5pt solid black\" space-before=\"6pt\"><fo:table-body>\n");
            for (int r = 0; r < 8; r++) {
                b.append("<fo:table-row>");
                for (int c = 0; c < 4; c++) {
                    b.append("<fo:table-cell border=\"0.5pt solid black\" padding=\"2pt\"><fo:block>")
                     .append(WORDS[(s + r * 5 + c * 3) % WORDS.length]).append(' ').append(s * r + c).append("</fo:block></fo:table-cell>");
                }
                b.append("</fo:table-row>\n");
            }
            b.append("</fo:table-body></fo:table>\n");
        }
        return b.append("</fo:flow></fo:page-sequence></fo:root>\n").toString();
    }

    private static final String[] WORDS = {"record", "replay", "thread", "order", "event", "stream", "chunk", "clock",
        "monitor", "divergence", "determinism", "interception", "agent", "bytecode", "recording", "follower"};
}
