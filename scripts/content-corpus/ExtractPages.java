import dev.loomcrawl.crawler.content.MainContent;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/**
 * loomcrawl's main content of saved pages, for the scripts beside it. Each line of the list file is
 * "page.html TAB its URL TAB where to write the content": Markdown where that ends in {@code .md}, else text. A
 * page is decoded as a crawl decodes it (its BOM or {@code <meta charset>}, else UTF-8), or in the charset given
 * after the list (pages saved again as UTF-8 whose {@code <meta>} still names the charset they were served in).
 */
public class ExtractPages {
    public static void main(String[] args) throws Exception {
        ContentRequest text = new ContentRequest(ContentFormat.TEXT, 10_000_000);
        ContentRequest markdown = new ContentRequest(ContentFormat.MARKDOWN, 10_000_000);
        String charset = args.length > 1 ? args[1] : null;
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t");
            Document doc;
            try (InputStream in = Files.newInputStream(Path.of(f[0]))) {
                doc = Jsoup.parse(in, charset, f[1]);
            }
            ContentRequest request = f[2].endsWith(".md") ? markdown : text;
            Files.writeString(Path.of(f[2]), MainContent.of(doc, request).content().text());
        }
    }
}
