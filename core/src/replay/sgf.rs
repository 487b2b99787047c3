//! The plain form of an SGF game record, as hexarena's referee writes it: one game tree of
//! nodes whose properties have one or more values, no escape in any value, no property
//! named twice in a node, ASCII white space between the parts. It is the form the Python
//! reader (results/record/sgf.py) reads a node a match; any other text is not read here
//! (None), so a caller gives it to the Python reader, which reads it or says what is wrong.

/// One node: each property's name and first value, in the order written.
pub struct Node<'a> {
    pub props: Vec<(&'a str, &'a str)>,
}

impl<'a> Node<'a> {
    /// The first value of property `name`.
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.props.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
    }
}

fn space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn skip_space(&mut self) {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && space(bytes[self.pos]) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// `[value]` with no escape, the reader on its `[`; None at a backslash or the end.
    fn value(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let start = self.pos + 1;
        let len = bytes[start..].iter().position(|&b| b == b']' || b == b'\\')?;
        if bytes[start + len] == b'\\' {
            return None;
        }
        self.pos = start + len + 1;
        Some(&self.text[start..start + len])
    }

    /// A node's properties, the reader after its `;`; None for a name written twice.
    fn node(&mut self) -> Option<Node<'a>> {
        let mut props: Vec<(&'a str, &'a str)> = Vec::with_capacity(4);
        loop {
            let mark = self.pos;
            self.skip_space();
            let bytes = self.text.as_bytes();
            let start = self.pos;
            while self.pos < bytes.len() && bytes[self.pos].is_ascii_uppercase() {
                self.pos += 1;
            }
            if self.pos == start {
                self.pos = mark;
                return Some(Node { props });
            }
            let name = &self.text[start..self.pos];
            let mut first = None;
            loop {
                let before = self.pos;
                self.skip_space();
                if self.peek() != Some(b'[') {
                    self.pos = before;
                    break;
                }
                let v = self.value()?;
                first.get_or_insert(v);
            }
            let first = first?;
            if props.iter().any(|(k, _)| *k == name) {
                return None;
            }
            props.push((name, first));
        }
    }
}

/// The nodes of a plain game record (root first), None when the text is not of that form.
pub fn plain(text: &str) -> Option<Vec<Node<'_>>> {
    let mut r = Reader { text, pos: 0 };
    r.skip_space();
    if r.peek() != Some(b'(') {
        return None;
    }
    r.pos += 1;
    let mut nodes = Vec::new();
    loop {
        r.skip_space();
        match r.peek() {
            Some(b';') => {
                r.pos += 1;
                nodes.push(r.node()?);
            }
            Some(b')') if !nodes.is_empty() => {
                r.pos += 1;
                break;
            }
            _ => return None,
        }
    }
    r.skip_space();
    (r.pos == text.len()).then_some(nodes)
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn reads_the_plain_form() {
        let nodes = plain(" (;FF[4]SZ[5] XG[spelde]\n;B[e5]XT[1.5][2];W[a1] )\n").unwrap();
        assert_eq!(nodes.len(), 3);
        assert_eq!(nodes[0].get("XG"), Some("spelde"));
        assert_eq!(nodes[1].get("XT"), Some("1.5"));
        assert_eq!(nodes[2].get("W"), Some("a1"));
    }

    #[test]
    fn leaves_other_texts_to_the_full_reader() {
        for text in ["(;B[a\\]b])", "(;B[a]B[b])", "(;B[a](;W[b]))", "(;B[a])x", "()", "(;B[a]", "(;B)",
                     "(;b[a])", "(;B[a])\u{a0}"] {
            assert!(plain(text).is_none(), "{text}");
        }
    }
}
