//! The PROXY protocol (v1 text and v2 binary), as TCP balancers such as
//! HAProxy send it before the client's own bytes: it carries the client's
//! address, which the per-address limit, bans and logs then use.
//!
//! Parsing is `ppp`'s; this module reads exactly the header's bytes off
//! the socket (no buffering past it), so the stream reaches the SSH or
//! telnet code with the client's first byte next.

use std::net::SocketAddr;

use thiserror::Error;
use tokio::io::{AsyncRead, AsyncReadExt};

/// The v2 signature: twelve fixed bytes.
const V2_SIGNATURE: &[u8; 12] = b"\r\n\r\n\0\r\nQUIT\n";
/// A v1 header is at most 107 bytes, CRLF included.
const V1_MAX: usize = 107;
/// Longest v2 address block taken (addresses plus TLVs); the format
/// allows 65,535, balancers send a few dozen bytes.
const V2_MAX_PAYLOAD: usize = 1024;

/// Why a connection's PROXY header was refused.
#[derive(Debug, Error)]
pub enum ProxyError {
    #[error("no PROXY protocol header")]
    Missing,
    #[error("malformed PROXY protocol header: {0}")]
    Malformed(String),
    #[error("PROXY protocol header too long")]
    TooLong,
    #[error("connection closed before the PROXY header ended: {0}")]
    Io(#[from] std::io::Error),
}

/// Reads one PROXY header. `Ok(Some(addr))`: the client's address;
/// `Ok(None)`: a header that names no client (v1 `UNKNOWN`, v2 `LOCAL`,
/// such as a balancer's health check), so the socket's own address stands.
pub async fn read_header<S: AsyncRead + Unpin>(
    stream: &mut S,
) -> Result<Option<SocketAddr>, ProxyError> {
    // Both versions are told apart by their first bytes; the shortest
    // header ("PROXY UNKNOWN\r\n") is 15 bytes, so 12 can be read at once.
    let mut buf = vec![0u8; 12];
    stream.read_exact(&mut buf).await?;
    if buf.starts_with(b"PROXY ") {
        let mut byte = [0u8; 1];
        while !buf.ends_with(b"\r\n") {
            if buf.len() >= V1_MAX {
                return Err(ProxyError::TooLong);
            }
            stream.read_exact(&mut byte).await?;
            buf.push(byte[0]);
        }
        let text = std::str::from_utf8(&buf)
            .map_err(|_| ProxyError::Malformed("v1 header is not text".into()))?;
        let header = ppp::v1::Header::try_from(text)
            .map_err(|e| ProxyError::Malformed(format!("v1: {e}")))?;
        Ok(match header.addresses {
            ppp::v1::Addresses::Tcp4(a) => {
                Some(SocketAddr::from((a.source_address, a.source_port)))
            }
            ppp::v1::Addresses::Tcp6(a) => {
                Some(SocketAddr::from((a.source_address, a.source_port)))
            }
            ppp::v1::Addresses::Unknown => None,
        })
    } else if buf[..] == V2_SIGNATURE[..] {
        buf.resize(16, 0);
        stream.read_exact(&mut buf[12..]).await?;
        let len = u16::from_be_bytes([buf[14], buf[15]]) as usize;
        if len > V2_MAX_PAYLOAD {
            return Err(ProxyError::TooLong);
        }
        buf.resize(16 + len, 0);
        stream.read_exact(&mut buf[16..]).await?;
        let header = ppp::v2::Header::try_from(&buf[..])
            .map_err(|e| ProxyError::Malformed(format!("v2: {e}")))?;
        if header.command == ppp::v2::Command::Local {
            return Ok(None);
        }
        match header.addresses {
            ppp::v2::Addresses::IPv4(a) => {
                Ok(Some(SocketAddr::from((a.source_address, a.source_port))))
            }
            ppp::v2::Addresses::IPv6(a) => {
                Ok(Some(SocketAddr::from((a.source_address, a.source_port))))
            }
            // A proxied connection that names no IP client (a Unix socket
            // or unspecified): the balancer's address stands.
            ppp::v2::Addresses::Unspecified | ppp::v2::Addresses::Unix(_) => Ok(None),
        }
    } else {
        Err(ProxyError::Missing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    async fn parse(bytes: &[u8]) -> (Result<Option<SocketAddr>, ProxyError>, Vec<u8>) {
        let mut cursor = std::io::Cursor::new(bytes.to_vec());
        let r = read_header(&mut cursor).await;
        let mut rest = Vec::new();
        cursor.read_to_end(&mut rest).await.unwrap();
        (r, rest)
    }

    fn v2(command: u8, family: u8, addresses: &[u8]) -> Vec<u8> {
        let mut h = V2_SIGNATURE.to_vec();
        h.push(command);
        h.push(family);
        h.extend_from_slice(&(addresses.len() as u16).to_be_bytes());
        h.extend_from_slice(addresses);
        h
    }

    #[tokio::test]
    async fn v1_gives_the_client_address_and_leaves_the_rest_unread() {
        let (r, rest) = parse(b"PROXY TCP4 203.0.113.7 10.0.0.1 51234 22\r\nSSH-2.0-x\r\n").await;
        assert_eq!(r.unwrap(), Some("203.0.113.7:51234".parse().unwrap()));
        assert_eq!(rest, b"SSH-2.0-x\r\n");
        let (r, _) = parse(b"PROXY TCP6 2001:db8::9 2001:db8::1 4000 22\r\n").await;
        assert_eq!(r.unwrap(), Some("[2001:db8::9]:4000".parse().unwrap()));
        let (r, rest) = parse(b"PROXY UNKNOWN\r\nhello").await;
        assert_eq!(r.unwrap(), None);
        assert_eq!(rest, b"hello");
    }

    #[tokio::test]
    async fn v2_gives_the_client_address_skipping_tlvs() {
        // PROXY over TCP/IPv4: 198.51.100.4:40000 -> 10.0.0.1:2222, one NOOP TLV.
        let mut addrs = vec![198, 51, 100, 4, 10, 0, 0, 1];
        addrs.extend_from_slice(&40000u16.to_be_bytes());
        addrs.extend_from_slice(&2222u16.to_be_bytes());
        addrs.extend_from_slice(&[0x04, 0, 2, 7, 7]);
        let mut bytes = v2(0x21, 0x11, &addrs);
        bytes.extend_from_slice(b"after");
        let (r, rest) = parse(&bytes).await;
        assert_eq!(r.unwrap(), Some("198.51.100.4:40000".parse().unwrap()));
        assert_eq!(rest, b"after");
        // IPv6.
        let mut addrs = Vec::new();
        addrs.extend_from_slice(
            &"2001:db8::5"
                .parse::<std::net::Ipv6Addr>()
                .unwrap()
                .octets(),
        );
        addrs.extend_from_slice(
            &"2001:db8::1"
                .parse::<std::net::Ipv6Addr>()
                .unwrap()
                .octets(),
        );
        addrs.extend_from_slice(&7u16.to_be_bytes());
        addrs.extend_from_slice(&22u16.to_be_bytes());
        let (r, _) = parse(&v2(0x21, 0x21, &addrs)).await;
        assert_eq!(r.unwrap(), Some("[2001:db8::5]:7".parse().unwrap()));
        // LOCAL (a health check): no client address.
        let (r, rest) = parse(&[v2(0x20, 0x00, &[]), b"x".to_vec()].concat()).await;
        assert_eq!(r.unwrap(), None);
        assert_eq!(rest, b"x");
    }

    #[tokio::test]
    async fn anything_else_is_refused() {
        let (r, _) = parse(b"SSH-2.0-OpenSSH_9.2\r\n").await;
        assert!(matches!(r, Err(ProxyError::Missing)), "{r:?}");
        let (r, _) = parse(b"PROXY TCP4 not-an-address 10.0.0.1 1 2\r\n").await;
        assert!(matches!(r, Err(ProxyError::Malformed(_))), "{r:?}");
        let mut long = b"PROXY TCP4 ".to_vec();
        long.extend(std::iter::repeat_n(b'1', 200));
        let (r, _) = parse(&long).await;
        assert!(matches!(r, Err(ProxyError::TooLong)), "{r:?}");
        // Cut short.
        let (r, _) = parse(b"PROXY TCP4 1.2.3.4").await;
        assert!(matches!(r, Err(ProxyError::Io(_))), "{r:?}");
        // A v2 header claiming more than we take.
        let mut h = V2_SIGNATURE.to_vec();
        h.extend_from_slice(&[0x21, 0x11, 0xff, 0xff]);
        let (r, _) = parse(&h).await;
        assert!(matches!(r, Err(ProxyError::TooLong)), "{r:?}");
        // A v2 header of the wrong version.
        let (r, _) = parse(&v2(0x11, 0x11, &[0; 12])).await;
        assert!(matches!(r, Err(ProxyError::Malformed(_))), "{r:?}");
    }
}
