package dev.loomcrawl.crawler.url;

/**
 * What the URL Standard calls a failure, thrown inside this package and returned from it as a value
 * ({@link WebUrl.Parse.Failure}). Without a stack trace: it says what is wrong with the input, not where.
 */
final class InvalidUrlException extends RuntimeException {
    InvalidUrlException(String message) {
        super(message, null, false, false);
    }
}
