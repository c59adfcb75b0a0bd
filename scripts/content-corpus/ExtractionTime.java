import dev.loomcrawl.crawler.content.MainContent;
import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/**
 * The time loomcrawl's main content takes over saved pages, as Markdown at the default cut, for
 * extraction-time.py. Each line of the list file is "page.html TAB its URL". Every page is parsed once, then read
 * in turn, every page of the list in each round, as a crawl of that many sites at once meets them: each site's
 * class and id spellings come back only after every other site's. Prints the first round and the median of the
 * rest, in ms.
 */
public class ExtractionTime {
    public static void main(String[] args) throws Exception {
        List<Document> docs = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split("\t");
            try (InputStream in = Files.newInputStream(Path.of(f[0]))) {
                docs.add(Jsoup.parse(in, null, f[1]));
            }
        }
        ContentRequest markdown = new ContentRequest(ContentFormat.MARKDOWN, ContentFormat.DEFAULT_MAX_CHARS);
        int rounds = Math.max(2, args.length > 1 ? Integer.parseInt(args[1]) : 7); // the first, then the rest
        long[] millis = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            for (Document doc : docs) {
                MainContent.of(doc, markdown);
            }
            millis[r] = (System.nanoTime() - start) / 1_000_000;
        }
        long[] rest = Arrays.copyOfRange(millis, 1, rounds);
        Arrays.sort(rest);
        System.out.printf("%d pages: first round %d ms, then %d ms by the median of %d (%d-%d)%n", docs.size(),
                millis[0], rest[rest.length / 2], rest.length, rest[0], rest[rest.length - 1]);
    }
}
