package conformance;

import java.io.File;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.safety.Safelist;

/** jsoup: parses an HTML file, prints its outline and links, and cleans it with a safelist. */
public final class JsoupDriver {
    public static void main(String[] args) throws Exception {
        Document doc = Jsoup.parse(new File(args[0]), "UTF-8", "https://example.org/docs/");
        System.out.println("title: " + doc.title());
        for (Element h : doc.select("h1, h2, h3")) {
            System.out.println("  ".repeat(h.tagName().charAt(1) - '1') + h.text());
        }
        for (Element a : doc.select("a[href]")) {
            System.out.println("link: " + a.attr("abs:href") + " (" + a.text() + ")");
        }
        System.out.println("cells: " + doc.select("td").eachText());
        System.out.println(Jsoup.clean(doc.body().html(), Safelist.basic()));
    }
}
