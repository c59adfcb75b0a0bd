package dev.loomcrawl.crawler.values;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;

/** Why a file or folder could not be made, in words: NIO's exceptions carry only the path as their message. */
public final class FileErrors {
    private FileErrors() {}

    /** {@code permission denied}, {@code /x is a file, not a folder}, {@code not a directory} ... */
    public static String reason(IOException e) {
        return switch (e) {
            case AccessDeniedException x -> "permission denied";
            case NoSuchFileException x -> "no such folder, or no file can be made there";
            case FileAlreadyExistsException x -> x.getFile() + " is a file, not a folder";
            case FileSystemException x when x.getReason() != null ->
                    x.getReason().substring(0, 1).toLowerCase(Locale.ROOT) + x.getReason().substring(1);
            default -> String.valueOf(e.getMessage());
        };
    }
}
