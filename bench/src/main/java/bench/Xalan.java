package bench;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import javax.xml.transform.Templates;
import javax.xml.transform.Transformer;
import javax.xml.transform.stream.StreamResult;
import javax.xml.transform.stream.StreamSource;

import org.apache.xalan.processor.TransformerFactoryImpl;

/**
 * xalan: transforms a generated catalogue document into HTML with a generated stylesheet (sorting,
 * grouping, keys, number formatting), several times with one compiled template shared by N worker
 * threads, each transforming its share of the rounds with its own transformer, as DaCapo's xalan
 * does. Outputs are gathered per round, so the digest does not depend on the interleaving. Xalan's
 * factory is named, not looked up, because other libraries on the bench class path provide one too.
 */
public final class Xalan {
    private Xalan() {
    }

    public static void main(String[] args) throws Exception {
        Timed.begin();
        int items = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int threads = Integer.parseInt(args[2]);
        Templates templates = new TransformerFactoryImpl().newTemplates(new StreamSource(new StringReader(stylesheet())));
        String doc = document(items);
        String[] outputs = new String[rounds];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t;
            Thread w = new Thread(() -> transform(templates, doc, outputs, first, threads), "transformer-" + t);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        ResultDigest digest = new ResultDigest();
        for (String o : outputs) {
            digest.add(o);
        }
        digest.print("xalan");
        Timed.end();
    }

    private static void transform(Templates templates, String doc, String[] outputs, int first, int step) {
        try {
            for (int i = first; i < outputs.length; i += step) {
                Transformer t = templates.newTransformer();
                t.setParameter("round", i);
                StringWriter out = new StringWriter();
                t.transform(new StreamSource(new StringReader(doc)), new StreamResult(out));
                outputs[i] = out.toString();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String document(int items) {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<catalogue>\n");
        for (int i = 0; i < items; i++) {
            sb.append("  <item id=\"").append(i).append("\" category=\"cat").append(i % 17).append("\">")
              .append("<name>Item ").append(Integer.toString(i * 7919 % 100003, 36)).append("</name>")
              .append("<price>").append(i * 37 % 1000).append('.').append(i % 100).append("</price>")
              .append("<stock>").append(i * 13 % 50).append("</stock>")
              .append("<description>A &lt;fine&gt; item number ").append(i).append(" of many</description></item>\n");
        }
        return sb.append("</catalogue>\n").toString();
    }

    private static String stylesheet() {
        return """
            <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
              <xsl:output method="html" indent="yes"/>
              <xsl:param name="round" select="0"/>
              <xsl:key name="by-category" match="item" use="@category"/>
              <xsl:template match="/catalogue">
                <html><body>
                  <h1>Catalogue, round <xsl:value-of select="$round"/></h1>
                  <xsl:for-each select="item[generate-id() = generate-id(key('by-category', @category)[1])]">
                    <xsl:sort select="@category"/>
                    <xsl:variable name="cat" select="key('by-category', @category)"/>
                    <h2><xsl:value-of select="@category"/>: <xsl:value-of select="count($cat)"/> items,
                      total <xsl:value-of select="format-number(sum($cat/price), '#,##0.00')"/></h2>
                    <table>
                      <xsl:apply-templates select="$cat[stock &gt; 10]">
                        <xsl:sort select="price" data-type="number" order="descending"/>
                        <xsl:sort select="name"/>
                      </xsl:apply-templates>
                    </table>
                  </xsl:for-each>
                </body></html>
              </xsl:template>
              <xsl:template match="item">
                <tr class="{concat('row', position() mod 2)}">
                  <td><xsl:value-of select="translate(name, 'abcdefghij', 'ABCDEFGHIJ')"/></td>
                  <td><xsl:value-of select="format-number(price * (1 + $round div 100), '0.00')"/></td>
                  <td><xsl:value-of select="substring-before(description, ' of')"/></td>
                </tr>
              </xsl:template>
            </xsl:stylesheet>
            """;
    }
}
