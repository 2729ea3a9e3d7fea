package io.kgrag.core.qa.io;

/**
 * A question record with the line it starts on (1-based), for parsers that read a whole file.
 *
 * @param line the physical line the record starts on
 * @param record the record
 */
public record NumberedQuestion(long line, QuestionRecord record) {}
