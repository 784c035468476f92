package conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.text.TextContentRenderer;

/** CommonMark: renders each Markdown file given to HTML (written beside it) and prints its text content. */
public final class CommonMarkDriver {
    public static void main(String[] args) throws Exception {
        List<org.commonmark.Extension> ext = List.of(TablesExtension.create());
        Parser parser = Parser.builder().extensions(ext).build();
        HtmlRenderer html = HtmlRenderer.builder().extensions(ext).build();
        TextContentRenderer text = TextContentRenderer.builder().extensions(ext).build();
        for (String a : args) {
            Node doc = parser.parse(Files.readString(Path.of(a)));
            String out = html.render(doc);
            Files.writeString(Path.of(a.replaceAll("\\.md$", ".html")), out);
            System.out.println("== " + a + ": " + out.length() + " chars of HTML");
            System.out.println(text.render(doc));
        }
    }
}
