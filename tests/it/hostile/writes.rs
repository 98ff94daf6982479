//! Writes and deletes stay inside the folder carta owns: a committed symlink, FIFO or device where carta would write is an error naming it, and a victim folder outside is byte-identical afterwards.
